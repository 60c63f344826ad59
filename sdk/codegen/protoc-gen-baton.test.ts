/**
 * protoc-gen-baton on a small representative proto of its own (sdk/codegen/testdata), through
 * the real `buf generate`; and its refusals, each naming the element at fault.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRisk } from "../src/contract/catalog.js";
import { parseToolCall } from "../src/contract/parse-tool-call.js";
import { type TempGen, tempGen } from "./generate-in-temp.js";

const shop = readFileSync(join(import.meta.dirname, "testdata/acme/v1/shop.proto"), "utf8");

describe("protoc-gen-baton on acme/v1/shop.proto", () => {
  let gen: TempGen;
  // biome-ignore lint: the module's shape is what the test asserts.
  let mod: any;
  let docs = "";

  beforeAll(async () => {
    gen = tempGen("options");
    gen.write("acme/v1/shop.proto", shop);
    await gen.generate();
    mod = await import(pathToFileURL(join(gen.dir, "gen/acme/v1/shop_baton.ts")).href);
    docs = readFileSync(join(gen.dir, "docs/shop.md"), "utf8");
  });
  afterAll(() => gen?.remove());

  it("emits the JSON Schema of every field kind", () => {
    expect(mod.toolCatalog.tools.add_to_cart.parameters).toEqual({
      type: "object",
      properties: {
        sku: { description: "Stock keeping unit.", type: "string", maxLength: 20 },
        quantity: { description: "How many.", type: "integer", minimum: 1, maximum: 99, default: 1 },
        size: { description: "Size, for clothes.", type: "string", enum: ["small", "extra_large"] },
        notes: {
          description: "Notes for the packer.",
          type: "array",
          items: { type: "string", maxLength: 100 },
          maxItems: 3,
        },
        attributes: {
          description: "Free-form attributes.",
          type: "object",
          additionalProperties: { type: "string" },
        },
        price_cents: { description: "Price shown, in cents.", type: "integer" },
        gift_message: {
          description: "A message on the card. Set at most one of: gift_message, gift_wrap.",
          type: "string",
        },
        gift_wrap: { description: "Wrap it. Set at most one of: gift_message, gift_wrap.", type: "boolean" },
        buy_now: { description: "Buy right away instead of adding.", type: "boolean" },
      },
      required: ["sku"],
      additionalProperties: false,
    });
    expect(mod.toolCatalog.tools.checkout.parameters).toEqual({
      type: "object",
      properties: {
        ship_to: {
          description: "Where to ship.",
          type: "object",
          properties: {
            street: { description: "Street and number.", type: "string" },
            city: { description: "City.", type: "string" },
          },
          required: ["street"],
          additionalProperties: false,
        },
        deliver_after: { description: "Earliest delivery.", type: "string", format: "date-time" },
        tip: { description: "Tip for the courier, in percent.", type: "number", minimum: 0, maximum: 100 },
      },
      required: ["ship_to"],
      additionalProperties: false,
    });
  });

  it("takes descriptions from comments or the option, and side, risk and title from the option", () => {
    const { add_to_cart: add, checkout } = mod.toolCatalog.tools;
    expect([add.description, add.title, add.side, add.risk, add.case]).toEqual([
      "Add an item to the cart. Quantities add up.",
      "add to cart",
      "client",
      "mutating",
      "addToCart",
    ]);
    expect(add.irreversibleFlag).toBe("buy_now");
    expect(checkout.irreversibleFlag).toBeUndefined();
    expect([checkout.description, checkout.title, checkout.side, checkout.risk]).toEqual([
      "Pay for everything in the cart. Cannot be undone.",
      "Checkout",
      "backend",
      "irreversible",
    ]);
  });

  it("emits OpenAI Responses, Chat Completions, Anthropic and Gemini declarations", () => {
    const params = mod.toolCatalog.tools.checkout.parameters;
    const description = "Pay for everything in the cart. Cannot be undone.";
    expect(mod.openAiResponsesTools[1]).toEqual({ type: "function", name: "checkout", description, parameters: params, strict: false });
    expect(mod.openAiChatTools[1]).toEqual({ type: "function", function: { name: "checkout", description, parameters: params } });
    // Anthropic's tool shape: the same JSON Schema object (not a copy) as its input_schema.
    expect(mod.anthropicTools.map((t: { name: string }) => t.name)).toEqual(["add_to_cart", "checkout"]);
    expect(mod.anthropicTools[1]).toEqual({ name: "checkout", description, input_schema: params });
    expect(mod.anthropicTools[1].input_schema).toBe(params);
    expect(mod.geminiFunctionDeclarations[0]).toEqual({
      name: "add_to_cart",
      description: "Add an item to the cart. Quantities add up.",
      parameters: {
        type: "OBJECT",
        properties: {
          sku: { type: "STRING", description: "Stock keeping unit.", maxLength: "20" },
          quantity: { type: "INTEGER", description: "How many.", minimum: 1, maximum: 99, default: 1 },
          size: { type: "STRING", description: "Size, for clothes.", enum: ["small", "extra_large"] },
          notes: { type: "ARRAY", description: "Notes for the packer.", maxItems: "3", items: { type: "STRING", maxLength: "100" } },
          attributes: { type: "OBJECT", description: "Free-form attributes." },
          price_cents: { type: "INTEGER", description: "Price shown, in cents." },
          gift_message: { type: "STRING", description: "A message on the card. Set at most one of: gift_message, gift_wrap." },
          gift_wrap: { type: "BOOLEAN", description: "Wrap it. Set at most one of: gift_message, gift_wrap." },
          buy_now: { type: "BOOLEAN", description: "Buy right away instead of adding." },
        },
        required: ["sku"],
      },
    });
  });

  it("emits MCP tools with annotations from the risk and the per-call flag", () => {
    const { add_to_cart: add, checkout } = mod.toolCatalog.tools;
    expect(mod.mcpTools).toEqual([
      {
        name: "add_to_cart",
        title: "add to cart",
        description: "Add an item to the cart. Quantities add up.",
        inputSchema: add.parameters,
        // Mutating, but buy_now makes a call irreversible: a client must treat it as destructive.
        annotations: { title: "add to cart", readOnlyHint: false, destructiveHint: true },
      },
      {
        name: "checkout",
        title: "Checkout",
        description: "Pay for everything in the cart. Cannot be undone.",
        inputSchema: checkout.parameters,
        annotations: { title: "Checkout", readOnlyHint: false, destructiveHint: true },
      },
    ]);
    expect(mod.mcpTools[0].inputSchema).toBe(add.parameters);
  });

  it("emits the name maps and a docs page", () => {
    expect(mod.toolCases).toEqual({ add_to_cart: "addToCart", checkout: "checkout" });
    expect(mod.toolNames).toEqual({ addToCart: "add_to_cart", checkout: "checkout" });
    expect(mod.toolFieldNames.add_to_cart).toMatchObject({ price_cents: "priceCents", gift_message: "giftMessage" });
    expect(mod.toolFieldNames.checkout).toEqual({ ship_to: "shipTo", deliver_after: "deliverAfter", tip: "tip" });
    expect(docs).toContain("# Tool reference: `acme.v1.ShopCall`");
    expect(docs).toContain("| [`checkout`](#checkout) | `checkout` | backend | irreversible |");
    expect(docs).toContain("| `quantity` | integer |  | 1–99, default 1 | How many. |");
  });

  it("works with the SDK's parser: a typed call with defaults, enums, 64-bit ints and oneofs", () => {
    const r = parseToolCall(mod.toolCatalog, "add_to_cart", {
      sku: "A-1",
      size: "extra_large",
      priceCents: 1999,
      gift_wrap: true,
    });
    if (!r.ok) throw new Error(r.error.message);
    const value = (r.call as any).tool.value;
    expect(value.quantity).toBe(1);
    expect(value.size).toBe(2);
    expect(value.priceCents).toBe(1999n);
    expect(value.gift).toEqual({ case: "giftWrap", value: true });
    expect(callRisk(mod.toolCatalog.tools.add_to_cart, value)).toBe("mutating");
    const now = parseToolCall(mod.toolCatalog, "add_to_cart", { sku: "A-1", buy_now: true });
    if (!now.ok) throw new Error(now.error.message);
    expect(callRisk(mod.toolCatalog.tools.add_to_cart, (now.call as any).tool.value)).toBe("irreversible");
    const bad = parseToolCall(mod.toolCatalog, "checkout", { ship_to: { city: "Oslo" } });
    expect(bad.ok ? "" : bad.error.message).toContain('"ship_to.street" is required');
  });
});

describe("protoc-gen-baton refuses what it cannot describe", () => {
  const header = 'syntax = "proto3";\npackage bad.v1;\nimport "baton/v1/options.proto";\nimport "google/protobuf/struct.proto";\n';
  const catalog = (cases: string, results: string) =>
    `// C.\nmessage Call {\n  option (baton.v1.catalog) = {results: "Result"};\n  // T.\n  oneof tool {\n${cases}\n  }\n}\n` +
    `// R.\nmessage Result {\n  // T.\n  oneof tool {\n${results}\n  }\n}\n// Out.\nmessage Out {}\n`;
  const tool = (name: string, body: string, opt = "side: EXECUTOR_SIDE_CLIENT risk: RISK_READ_ONLY", comment = "// Does a thing.") =>
    `${comment}\nmessage ${name} {\n  option (baton.v1.tool) = {${opt}};\n${body}\n}\n`;

  const cases: [string, string, RegExp][] = [
    ["a tool without side and risk", catalog("    // a.\n    A a = 1;", "    // a.\n    Out a = 1;") + tool("A", "", ""), /bad\.v1\.A \(tool a\): set both side and risk/],
    ["a tool without description", catalog("    // a.\n    A a = 1;", "    // a.\n    Out a = 1;") + tool("A", "", undefined, ""), /bad\.v1\.A \(tool a\) has no description/],
    ["a field without description", catalog("    // a.\n    A a = 1;", "    // a.\n    Out a = 1;") + tool("A", "  string q = 1;"), /bad\.v1\.A\.q has no description/],
    ["a tool without a result", catalog("    // a.\n    A a = 1;\n    // b.\n    A b = 2;", "    // a.\n    Out a = 1;") + tool("A", ""), /bad\.v1\.Call\.b: every tool needs .* a bad\.v1\.Result case "b"/],
    ["a result without a tool", catalog("    // a.\n    A a = 1;", "    // a.\n    Out a = 1;\n    // z.\n    Out z = 2;") + tool("A", ""), /bad\.v1\.Result\.z has no matching tool/],
    ["recursive params", catalog("    // a.\n    A a = 1;", "    // a.\n    Out a = 1;") + tool("A", "  // Self.\n  A self = 1;"), /bad\.v1\.A is recursive/],
    ["untyped params", catalog("    // a.\n    A a = 1;", "    // a.\n    Out a = 1;") + tool("A", "  // Anything.\n  google.protobuf.Struct blob = 1;"), /bad\.v1\.A\.blob: google\.protobuf\.Struct cannot be described/],
    ["a non-bool irreversible flag", catalog("    // a.\n    A a = 1;", "    // a.\n    Out a = 1;") + tool("A", '  // N.\n  string n = 1 [(baton.v1.field) = {marks_irreversible: true}];'), /bad\.v1\.A\.n: marks_irreversible needs a singular bool field/],
    ["a bad default", catalog("    // a.\n    A a = 1;", "    // a.\n    Out a = 1;") + tool("A", '  // N.\n  uint32 n = 1 [(baton.v1.field) = {default_json: "five"}];'), /bad\.v1\.A\.n: default_json "five" is not valid JSON/],
  ];

  for (const [what, body, expected] of cases) {
    it(`rejects ${what}`, async () => {
      const gen = tempGen("options");
      try {
        gen.write("bad/v1/bad.proto", header + body);
        await expect(gen.generate()).rejects.toThrow(expected);
      } finally {
        gen.remove();
      }
    });
  }
});

describe("protoc-gen-baton's descriptors option", () => {
  it("refuses what its literals do not spell, naming each field and method", async () => {
    const gen = tempGen("options", ["descriptors"]);
    try {
      gen.write(
        "baton/v1/odd.proto",
        'syntax = "proto3";\npackage odd.v1;\nmessage M {\n  string a = 1 [json_name = "alpha"];\n  int64 b = 2 [jstype = JS_STRING];\n  repeated int32 c = 3 [packed = false];\n  string d = 4;\n}\n' +
          "service S {\n  rpc Get(M) returns (M) {\n    option idempotency_level = NO_SIDE_EFFECTS;\n  }\n}\n",
      );
      const failed = gen.generate();
      await expect(failed).rejects.toThrow(/odd\.v1\.M\.a: a custom json_name is not supported/);
      await expect(failed).rejects.toThrow(/odd\.v1\.M\.b: jstype, packed and features change the runtime field/);
      await expect(failed).rejects.toThrow(/odd\.v1\.M\.c: jstype, packed and features/);
      await expect(failed).rejects.toThrow(/odd\.v1\.S\.Get: idempotency_level changes how Connect calls it/);
      await expect(failed).rejects.not.toThrow(/M\.d/);
    } finally {
      gen.remove();
    }
  });
});
