import type { Playbook } from "@baton/gen/baton/v1/agent_pb";

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^\\s]*");
  return new RegExp(escaped, "i");
}

/** Which of a playbook's rules a task matches, and the score they add up to. */
export interface MatchDetails {
  readonly keywords: string[];
  readonly urlPatterns: string[];
  readonly score: number;
}

/**
 * How well a playbook's match rules fit a task: 3 per URL pattern found in the task, 1 per
 * keyword present as a word, with the rules that matched. A score of 0 means no match.
 */
export function matchDetails(p: Playbook, task: string): MatchDetails {
  const words = new Set(task.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const keywords = p.keywords.filter((k) => {
    const parts = k.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    return parts.length > 0 && parts.every((w) => words.has(w));
  });
  const urlPatterns = p.urlPatterns.filter((u) => u && globToRegExp(u).test(task));
  return { keywords, urlPatterns, score: keywords.length + 3 * urlPatterns.length };
}

/** The score of {@link matchDetails}. */
export function matchScore(p: Playbook, task: string): number {
  return matchDetails(p, task).score;
}

/** The playbook that fits the task best, or undefined when none matches at all. */
export function bestPlaybook(playbooks: readonly Playbook[], task: string): Playbook | undefined {
  let best: Playbook | undefined;
  let bestScore = 0;
  for (const p of playbooks) {
    const s = matchScore(p, task);
    if (s > bestScore) {
      best = p;
      bestScore = s;
    }
  }
  return best;
}
