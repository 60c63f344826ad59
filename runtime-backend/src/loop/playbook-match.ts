import type { Playbook } from "@baton/gen/baton/v1/agent_pb";

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^\\s]*");
  return new RegExp(escaped, "i");
}

/**
 * How well a playbook's match rules fit a task: 3 per URL pattern found in the task, 1 per
 * keyword present as a word. 0 means no match.
 */
export function matchScore(p: Playbook, task: string): number {
  const words = new Set(task.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  let score = 0;
  for (const k of p.keywords) {
    const parts = k.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    if (parts.length > 0 && parts.every((w) => words.has(w))) score += 1;
  }
  for (const u of p.urlPatterns) if (u && globToRegExp(u).test(task)) score += 3;
  return score;
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
