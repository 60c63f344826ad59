const board = document.body.dataset.board ?? "1";
// The board listens for updates for as long as it is open.
const events = new EventSource("/events");
events.onmessage = (e) => ((document.getElementById("conn") as HTMLElement).textContent = `live · update ${e.data}`);
document.getElementById("save")?.addEventListener("click", async () => {
  const res = await fetch(`/api/boards/${board}/save`, { method: "POST" });
  (document.getElementById("saved") as HTMLElement).textContent = res.ok ? `Board ${board} saved` : "Save failed";
});
