/**
 * `<theme-picker value="light">`: a design-system component that renders its choices inside an
 * open shadow root and says `change` when one is picked (as Lit or Shoelace components do).
 */
class ThemePicker extends HTMLElement {
  static readonly observedAttributes = ["value"];
  readonly #root = this.attachShadow({ mode: "open" });

  get value(): string {
    return this.getAttribute("value") ?? "light";
  }

  connectedCallback(): void {
    this.#render();
  }

  attributeChangedCallback(): void {
    this.#render();
  }

  #render(): void {
    const choices = ["Light", "Dark", "System"];
    this.#root.innerHTML = `<style>
      .group { display: inline-flex; border: 1px solid #c9c9c2; border-radius: 8px; overflow: hidden; }
      button { font: inherit; border: none; padding: 8px 18px; background: #fff; cursor: pointer; }
      button[aria-pressed=true] { background: #6d3fd6; color: #fff; }
    </style><div class="group" role="group" aria-label="Theme">${choices
      .map((c) => `<button type="button" data-value="${c.toLowerCase()}" aria-pressed="${c.toLowerCase() === this.value}">${c}</button>`)
      .join("")}</div>`;
    for (const b of this.#root.querySelectorAll("button")) {
      b.addEventListener("click", () => {
        this.setAttribute("value", b.dataset.value ?? "light");
        this.dispatchEvent(new Event("change", { bubbles: true }));
      });
    }
  }
}

customElements.define("theme-picker", ThemePicker);
