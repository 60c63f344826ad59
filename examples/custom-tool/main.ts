/**
 * An integrator's own tools, end to end: Acme's support frontend declares `lookup_order` and
 * `cancel_order` in its own proto (proto/acme/v1/orders.proto, with Baton's options), generates
 * the catalog with protoc-gen-baton (`npm run gen`), implements the handlers — typed from the
 * proto, so a missing one does not compile — and brings them to a Baton session. The backend
 * declares them to the model and routes their calls back here; irreversible ones (cancel) wait
 * for the user's approval.
 */
import { clientTools, createBatonClient, type RunContext, type RunEvent, runTask, type TaskOutcome, withoutBrowser } from "@baton/sdk/client";
import { type ClientToolHandlers, toolCatalog as acmeCatalog } from "./gen/acme/v1/orders_baton.js";
import { OrderStatus } from "./gen/acme/v1/orders_pb.js";
import { ToolErrorCode, ToolFailure } from "@baton/sdk/contract";

/** Acme's order system, as far as this example needs it. */
export interface Order {
  status: OrderStatus;
  items: string[];
  totalCents: number;
}

/** Acme's tool handlers over an order table. */
export function acmeHandlers(orders: Map<string, Order>): ClientToolHandlers<RunContext> {
  const find = (id: string): Order => {
    const order = orders.get(id);
    if (!order) throw new ToolFailure(ToolErrorCode.NOT_FOUND, `There is no order ${id}. Ask the customer to check the number.`, { field: "order_id" });
    return order;
  };
  return {
    async lookupOrder({ orderId }) {
      const o = find(orderId);
      return { orderId, status: o.status, items: o.items, totalCents: o.totalCents };
    },
    async cancelOrder({ orderId }) {
      const o = find(orderId);
      if (o.status === OrderStatus.SHIPPED) {
        throw new ToolFailure(ToolErrorCode.NOT_ACTIONABLE, `Order ${orderId} has shipped and cannot be cancelled; offer a return instead.`);
      }
      o.status = OrderStatus.CANCELLED;
      return { status: o.status };
    },
  };
}

/** Options of {@link runSupportAgent}. */
export interface SupportAgentOptions {
  readonly backendUrl: string;
  readonly token: string;
  readonly task: string;
  readonly orders: Map<string, Order>;
  /** Whether the user approves an irreversible call (here: cancel_order). */
  readonly approve: (tool: string, argumentsJson: string) => boolean;
  readonly onEvent?: (e: RunEvent) => void;
}

/** Runs one support task with Acme's tools and no browser. */
export function runSupportAgent(o: SupportAgentOptions): Promise<TaskOutcome> {
  return runTask(createBatonClient({ baseUrl: o.backendUrl, token: o.token }), {
    task: o.task,
    handlers: withoutBrowser(async () => ({ answer: "The customer is not available." })),
    extensions: clientTools(acmeCatalog, acmeHandlers(o.orders)),
    onApproval: ({ tool, extension }) => ({ approved: o.approve(tool.name, extension?.argumentsJson ?? "") }),
    ...(o.onEvent ? { onEvent: o.onEvent } : {}),
  });
}
