import type { Budget } from "@baton/gen/baton/v1/agent_pb";
import { budgetOf } from "../loop/budget.js";
import { budgetMessage } from "../store/sessions.js";
import { defaultBudget, setDefaultBudget } from "../store/budgets.js";
import type { ConsoleDeps } from "./deps.js";

/** The user's default budget per session, as the console shows it. */
export async function defaultBudgetOf(deps: ConsoleDeps, userId: string): Promise<Budget> {
  return budgetMessage(await defaultBudget(deps.db, userId));
}

/** The user sets their own default budget: every new session that names none gets it. */
export async function setUserDefaultBudget(deps: ConsoleDeps, userId: string, budget: Budget | undefined): Promise<Budget> {
  const b = budgetOf(budget);
  await setDefaultBudget(deps.db, userId, b);
  return budgetMessage(b);
}
