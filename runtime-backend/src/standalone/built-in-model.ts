/**
 * `@baton/backend/built-in-model`: Chrome's built-in model for the extension's panel, apart from
 * the standalone AgentService (`@baton/backend/standalone`) so a panel that only asks about a page
 * loads neither the loop nor the store: the provider, the Prompt API's types, and the request for
 * a question about a page.
 */
export { BuiltInProvider, type BuiltInOptions, promptTooLong } from "../providers/built-in.js";
export {
  type Availability,
  browserLanguageModel,
  type CreateMonitor,
  type LanguageModelMessage,
  type LanguageModelSession,
  type LanguageModelStatic,
  textInEnglish,
} from "../providers/prompt-api.js";
export { ProviderError } from "../providers/types.js";
export { type PageExchange, type PageQuestion, pageQuestion, pageQuestionSystem } from "./page-question.js";
