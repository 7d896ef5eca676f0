// The printing pages' "Print" button opens the browser's print dialog (the page's content
// security policy allows no inline script).
for (const button of document.querySelectorAll("[data-print]")) {
  button.addEventListener("click", () => window.print());
}
