// A table body filled from rows of cell texts, rebuilt only when a text changed: a refresh a second
// would otherwise re-announce the table to a screen reader and lose a selection in it.

/**
 * Shows rows (arrays of strings) in tbody; the first cell of each is a row header. Each cell is
 * labelled with its column's heading, which a phone's width shows beside it (console.css).
 */
export function fillRows(tbody, rows) {
  const text = JSON.stringify(rows);
  if (tbody.dataset.shown === text) {
    return;
  }
  tbody.dataset.shown = text;
  const headings = [...tbody.parentElement.tHead.rows[0].cells].map((c) => c.textContent);
  tbody.replaceChildren(...rows.map((cells) => {
    const tr = document.createElement('tr');
    cells.forEach((cell, i) => {
      const td = document.createElement(i === 0 ? 'th' : 'td');
      if (i === 0) {
        td.scope = 'row';
      }
      td.dataset.label = headings[i];
      td.textContent = cell;
      tr.append(td);
    });
    return tr;
  }));
}
