import { create } from "@bufbuild/protobuf";
import { CreateSessionRequestSchema, SessionStatus, StepRequestSchema, ToolcallResultSchema } from "@baton/gen/baton/v1/agent_pb";
import { describe, expect, it } from "vitest";
import { scriptedAgent } from "../testing/harness.js";
import type { ModelRequest } from "../providers/types.js";
import { applyTurn, contextExceeds, defaultFoldOptions, enforceBudget, renderContext, shouldFold } from "./fold.js";
import { buildPrompt } from "./prompt.js";
import { emptyContext } from "./state.js";
import { parseTags, VisibleStream } from "./tags.js";
import { countTokens, LineTally } from "./token-count.js";

/** A tally of any text's lines, deciding like the context's own (fold.ts). */
function exceedsTokens(text: string, limit: number): boolean {
  const t = new LineTally();
  const lines = text.split("\n");
  lines.forEach((l, i) => t.line(l, i === lines.length - 1));
  return t.exceeds(limit, () => text);
}

describe("context tags", () => {
  it("extracts goal, non-task, notes and folds, and strips them from the visible text", () => {
    const t = parseTags("<goal>Book a table for two</goal>Looking now.\n<context>opened the site</context>");
    expect(t).toEqual({ visible: "Looking now.", goal: "Book a table for two", nonTask: false, note: "opened the site", fold: undefined });
    expect(parseTags("<non-task></non-task>Hi!")).toMatchObject({ nonTask: true, visible: "Hi!", goal: undefined });
    expect(parseTags("ok <context><fold>did A, B; next C</fold></context>")).toMatchObject({ fold: "did A, B; next C", note: undefined, visible: "ok" });
    // A reply cut off inside <context> still yields its note.
    expect(parseTags("ok <context>half a no")).toMatchObject({ note: "half a no", visible: "ok" });
  });
});

describe("visible text as it streams", () => {
  it("drops the control tags wherever the chunks split them, as parseTags does on the whole", () => {
    const texts = [
      "<goal>Book a table for two</goal>Looking now.\n<context>opened the site</context>",
      "<non-task></non-task>Hi! I am Baton. 2 < 3 and <b>bold</b> stay.",
      "Done <CONTEXT><fold>did A, B; next C</fold></CONTEXT> ok",
      "ok <context>half a note that never closes",
      "a <go",
    ];
    for (const text of texts) {
      for (const size of [1, 2, 3, 5, 8, 1000]) {
        const v = new VisibleStream();
        let out = "";
        for (let i = 0; i < text.length; i += size) out += v.push(text.slice(i, i + size));
        out += v.end();
        expect(out.trim(), `${JSON.stringify(text)} in chunks of ${size}`).toBe(parseTags(text).visible);
      }
    }
  });
});

describe("token budget checks", () => {
  it("decide exactly like counting the whole text, near and far from the limit", () => {
    const texts: string[] = [
      renderContext({ ...emptyContext("t"), micro: Array.from({ length: 300 }, (_, i) => `step ${i}: click({"ref":"e${i}"}) → {}`) }, "t"),
      ["<context>", "Goal: buy", "User messages:", "- hi   ", "  indented", "", "", "- x €", "</context>"].join("\n").repeat(200),
      Array.from({ length: 120 }, (_, i) => `${i}. ${"word ".repeat(i % 30)}\t`).join("\n"),
      // Punctuation takes "\n/" with it: lines that start with "/" after lines that end in punctuation.
      Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? `/path/${i} ok}` : `{"a":${i}}. end;`)).join("\n"),
    ];
    // Random lines over the characters where the pre-tokenizer's rules meet at line ends.
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const alphabet = ["a", "Word", "'s", " ", "  ", "\t", "/", "}", "{", "1234", "é", "€", "→", "🙂", ".", "-", ":", '"', "\r"];
    for (let t = 0; t < 20; t++) {
      texts.push(Array.from({ length: 150 }, () => Array.from({ length: rand(8) }, () => alphabet[rand(alphabet.length)]).join("")).join("\n"));
    }
    for (const text of texts) {
      const exact = countTokens(text);
      for (const limit of [exact - 50, exact - 3, exact - 1, exact, exact + 1, exact + 3, exact + 50, Math.floor(exact / 2), exact * 2]) {
        expect(exceedsTokens(text, limit), `limit ${limit} of ${exact}`).toBe(exact > limit);
      }
    }
  });
});

describe("context budget checks", () => {
  it("decide like counting the rendered context, for small, budget-sized and multi-line contexts", () => {
    const micro = Array.from({ length: 400 }, (_, i) => `step ${i}: click({"ref":"e${i}"}) → {"url":"/p/${i}"}`);
    const states = [
      { ...emptyContext("t"), micro: micro.slice(0, 3) },
      { ...emptyContext("t"), micro, user: ["hi", "/slash first", "two\nlines"], macro: ["did A", " spaced"] },
      { ...emptyContext("a task\n\n  with lines\n/and a slash"), micro: micro.slice(0, 100) },
    ];
    for (const s of states) {
      const exact = countTokens(renderContext(s, "t"));
      for (const limit of [exact - 20, exact - 2, exact - 1, exact, exact + 1, exact + 2, exact + 20, Math.floor(exact / 2)]) {
        expect(contextExceeds(s, "t", limit), `limit ${limit} of ${exact}`).toBe(exact > limit);
      }
    }
  });
});

describe("line-by-line token counts", () => {
  it("sum exactly to the whole text's count when no line after the first is empty or starts with whitespace or '/'", () => {
    let seed = 11;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const anywhere = ["a", "Word", "'s", "'LL", " ", "  ", "\t", "/", "}", "{", "1234", "é", "€", "→", "🙂", ".", "-", ":", '"', "\r", "中文"];
    const starts = anywhere.filter((c) => !/^[\s/]/.test(c));
    const sumOfLines = (lines: string[]) => lines.reduce((n, l, i) => n + countTokens(i < lines.length - 1 ? `${l}\n` : l), 0);
    for (let t = 0; t < 1000; t++) {
      const lines = Array.from({ length: 2 + rand(5) }, (_, i) => (i === 0 ? "" : starts[rand(starts.length)]) + Array.from({ length: rand(6) }, () => anywhere[rand(anywhere.length)]).join(""));
      expect(sumOfLines(lines), JSON.stringify(lines)).toBe(countTokens(lines.join("\n")));
    }
    // The boundaries that can join (why such lines widen the margin): ";\n//" and "\n\n" are one piece each.
    expect(sumOfLines(["end;", "// c"])).not.toBe(countTokens("end;\n// c"));
    expect(sumOfLines(["a", "", "b"])).not.toBe(countTokens("a\n\nb"));
  });
});

describe("folding", () => {
  const o = defaultFoldOptions;
  const turn = (step: number) => ({ step, text: "", calls: [{ id: `call_${step}_0`, name: "take_snapshot", arguments: "{}" }] });

  it("sets the goal on the first turn, turns the previous interaction into a micro summary, folds micro into macro", () => {
    let s = emptyContext("book a table");
    s = applyTurn(s, "book a table", parseTags("<goal>Book a table</goal>"), turn(1), new Map(), o);
    expect(s).toMatchObject({ goal: "Book a table", isTask: true, micro: [], latest: turn(1) });
    s = applyTurn(s, "t", parseTags("<context>saw the form</context>"), turn(2), new Map(), o);
    expect(s.micro).toEqual(["step 1: saw the form"]);
    // No note: a mechanical summary of the call and its result (the page described, not quoted).
    s = applyTurn(s, "t", parseTags(""), turn(3), new Map([["call_2_0", '{"url":"https://x.example/form?a=1","title":"Form","text":"[e1] button","ref_count":1}']]), o);
    expect(s.micro[1]).toBe("step 2: take_snapshot({}) → ok at https://x.example/form; text 11 chars, ref_count 1");
    s = applyTurn(s, "t", parseTags("<context><fold>form found, date picked</fold></context>"), turn(4), new Map(), o);
    expect(s.macro).toEqual(["form found, date picked"]);
    expect(s.micro).toHaveLength(1);
    expect(s.goal).toBe("Book a table");
  });

  it("asks for a fold past 20 summaries or half the token budget, and drops the oldest past the budget", () => {
    const s = { ...emptyContext("t"), micro: Array.from({ length: 20 }, (_, i) => `step ${i}: ok`) };
    expect(shouldFold(s, "t", o)).toBe(false);
    expect(shouldFold({ ...s, micro: [...s.micro, "one more"] }, "t", o)).toBe(true);
    const long = { ...emptyContext("t"), micro: Array.from({ length: 5 }, (_, i) => `step ${i}: ${"word ".repeat(900)}`) };
    expect(shouldFold(long, "t", o)).toBe(true);
    const fitted = enforceBudget({ ...long, micro: [...long.micro, ...long.micro] }, "t", o);
    expect(countTokens(renderContext(fitted, "t"))).toBeLessThanOrEqual(o.tokenBudget);
    expect(fitted.micro.length).toBeLessThan(10);
    expect(renderContext(fitted, "t")).toContain("Goal: t");
  });

  it("puts the fold instruction into the system prompt when due", () => {
    const s = { ...emptyContext("t"), isTask: true, micro: Array.from({ length: 21 }, (_, i) => `step ${i}: ok`) };
    const p = buildPrompt(s, "t", "", new Map(), o);
    expect(p.foldRequested).toBe(true);
    expect(p.system).toContain("<fold>");
    expect(buildPrompt(emptyContext("t"), "t", "Always use the search box.", new Map(), o).system).toContain("Always use the search box.");
  });
});

describe("a 120-step session", () => {
  it("keeps prompts bounded (step 100 ≤ 1.5× step 10) with the goal in every prompt", async () => {
    const goal = "Collect the prices of all 120 listed products";
    const script = (req: ModelRequest) => {
      const i = req.callIndex;
      const text = i === 0 ? `<goal>${goal}</goal>Starting.` : `Page ${i} read.`;
      return {
        text,
        calls: [{ name: "take_snapshot", args: { offset: i * 10 } }],
        context: `page ${i} lists products ${i * 10}-${i * 10 + 9}, prices noted, next offset ${i * 10 + 10}`,
        fold: `Read pages 0-${i}; prices of products 0-${i * 10 + 9} noted; continue from offset ${i * 10 + 10}.`,
      };
    };
    const { agent, model, close } = await scriptedAgent(script, { defaultMaxSteps: 130 });
    try {
      const s = await agent.createSession("alice", create(CreateSessionRequestSchema, { task: "Get me every product price from the catalog", maxSteps: 130 }));
      let r = await agent.step("alice", create(StepRequestSchema, { sessionId: s.id }));
      for (let step = 1; step < 120; step++) {
        const call = r.messages.find((m) => m.content.case === "functionCall");
        const id = call?.content.case === "functionCall" ? call.content.value.toolcallId : "";
        const snapshot = Array.from({ length: 60 }, (_, k) => `[e${k}] row "Product ${step * 10 + k} — €${(step * 7 + k) % 100}.99" link "details"`).join("\n");
        r = await agent.step(
          "alice",
          create(StepRequestSchema, {
            sessionId: s.id,
            input: {
              case: "toolResults",
              value: {
                results: [
                  create(ToolcallResultSchema, {
                    toolcallId: id,
                    outcome: { case: "result", value: { tool: { case: "takeSnapshot", value: { url: "https://shop.example/list", title: "Products", text: snapshot, refCount: 60 } } } },
                  }),
                ],
              },
            },
          }),
        );
      }
      expect(r.session?.status).toBe(SessionStatus.AWAITING_TOOLS);
      expect(model.requests).toHaveLength(120);
      const tokens = model.requests.map((q) => countTokens([q.system, ...q.items.map((i) => (i.type === "tool_result" ? i.output : i.type === "user" ? i.text : `${i.text}${JSON.stringify(i.calls)}`))].join("\n")));
      const at10 = tokens[9]!;
      const at100 = tokens[99]!;
      expect(at100).toBeLessThanOrEqual(1.5 * at10);
      expect(Math.max(...tokens.slice(10))).toBeLessThanOrEqual(2 * at10);
      for (const q of model.requests.slice(1)) {
        const first = q.items[0];
        expect(first?.type === "user" && first.text.includes(`Goal: ${goal}`)).toBe(true);
      }
      expect(model.requests.some((q) => q.foldRequested)).toBe(true);
      const got = await agent.getSession("alice", s.id);
      expect(got.session?.goal).toBe(goal);
      expect(got.traces).toHaveLength(120);
      console.log(`prompt tokens: step 10 = ${at10}, step 100 = ${at100}, max after 10 = ${Math.max(...tokens.slice(10))}`);
    } finally {
      await close();
    }
  });
});
