// The shop's state lives in sessionStorage, as a single-page shop keeps its basket client-side.
window.shop = {
  get basket() { return JSON.parse(sessionStorage.getItem("basket") || "[]"); },
  set basket(v) { sessionStorage.setItem("basket", JSON.stringify(v)); },
  products: { "blue-mug": { name: "Blue mug", price: 12 }, "red-mug": { name: "Red mug", price: 11 }, "blue-bowl": { name: "Blue bowl", price: 15 } },
};
// The search box: suggestions come after a debounce, and are divs with one delegated listener.
document.addEventListener("DOMContentLoaded", () => {
  const box = document.querySelector("[data-search]");
  if (!box) return;
  const list = document.querySelector(".suggestions");
  let timer;
  box.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const q = box.value.trim().toLowerCase();
      list.innerHTML = "";
      if (!q) return;
      for (const [id, p] of Object.entries(shop.products)) {
        if (!p.name.toLowerCase().includes(q)) continue;
        const d = document.createElement("div");
        d.className = "suggestion";
        d.setAttribute("role", "option");
        d.dataset.id = id;
        d.textContent = p.name;
        list.appendChild(d);
      }
    }, 300);
  });
  list.addEventListener("click", (e) => {
    const s = e.target.closest(".suggestion");
    if (s) location.href = "product.html?id=" + s.dataset.id;
  });
});
