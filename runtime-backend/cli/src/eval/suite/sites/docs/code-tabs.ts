/**
 * `<code-tabs>`: install commands per language in ARIA tabs, as docs generators render them.
 * Only the selected tab's code is in the page.
 */
const samples: readonly (readonly [string, string])[] = [
  ["cURL", "curl -H 'Authorization: Bearer $NIMBUS_KEY' https://api.nimbus.example/v1/objects"],
  ["Python", "pip install nimbus-sdk==4.2.0"],
  ["Node.js", "npm install @nimbus/sdk@4.2.0"],
  ["Go", "go get github.com/nimbus/nimbus-go@v4.2.0"],
];

class CodeTabs extends HTMLElement {
  #selected = 0;

  connectedCallback(): void {
    this.#render();
  }

  #render(): void {
    const [, code] = samples[this.#selected] ?? ["", ""];
    this.innerHTML = `<div class="tabs-bar" role="tablist" aria-label="Install">${samples
      .map(([name], i) => `<button role="tab" aria-selected="${i === this.#selected}" data-i="${i}">${name}</button>`)
      .join("")}</div><pre class="code" role="tabpanel"></pre>`;
    (this.querySelector("pre") as HTMLElement).textContent = code;
    for (const b of this.querySelectorAll<HTMLButtonElement>("[role=tab]")) {
      b.addEventListener("click", () => {
        this.#selected = Number(b.dataset.i);
        this.#render();
      });
    }
  }
}

customElements.define("code-tabs", CodeTabs);
