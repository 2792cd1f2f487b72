// Tables for the terminal and RESULTS.md, and one SVG bar chart per figure.

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** A markdown table from a header row and rows of cells. */
export function markdown(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Prints a figure's table to the terminal. */
export function print(title, header, rows) {
  const widths = header.map((h, i) => Math.max(String(h).length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ');
  console.log(`\n${title}\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${rows.map(line).join('\n')}`);
}

/**
 * A horizontal bar chart: one bar per `{ label, value }`, ours drawn in a darker colour, with the
 * value written at the bar's end in `unit`. `log` uses a logarithmic scale for wide ranges.
 */
export function barChart({ title, bars, unit, log = false }) {
  const width = 720;
  const left = 230;
  const barHeight = 22;
  const top = 40;
  const height = top + bars.length * (barHeight + 8) + 20;
  const max = Math.max(...bars.map((b) => b.value));
  const min = Math.min(...bars.map((b) => b.value).filter((v) => v > 0));
  const scale = (v) =>
    log
      ? ((Math.log10(v) - Math.log10(min) + 0.3) / (Math.log10(max) - Math.log10(min) + 0.3)) * (width - left - 120)
      : (v / max) * (width - left - 120);
  const rows = bars.map((b, i) => {
    const y = top + i * (barHeight + 8);
    const w = Math.max(2, scale(b.value));
    const fill = b.ours ? '#1f6feb' : '#9aa4b2';
    return (
      `<text x="${left - 8}" y="${y + 15}" text-anchor="end" font-size="13">${esc(b.label)}</text>` +
      `<rect x="${left}" y="${y}" width="${w.toFixed(1)}" height="${barHeight}" fill="${fill}"/>` +
      `<text x="${(left + w + 6).toFixed(1)}" y="${y + 15}" font-size="12">${esc(b.text ?? `${b.value} ${unit}`)}</text>`
    );
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">` +
    `<rect width="100%" height="100%" fill="#fff"/><text x="10" y="22" font-size="15" font-weight="bold">${esc(title)}${log ? ' (log scale)' : ''}</text>` +
    rows.join('') +
    `</svg>\n`
  );
}
