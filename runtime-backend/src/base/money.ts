/** US dollars as people read them: four decimals under a dollar, two above, trailing zeros dropped. */
export function money(n: number): string {
  return `$${n.toFixed(n < 1 ? 4 : 2).replace(/0{1,2}$/, "")}`;
}
