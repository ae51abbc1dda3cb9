import { figurePdf } from './figure-draw';
import type { Color, DashboardLayoutPlan } from './layout';

/**
 * A hand-written PDF 1.4 of a dashboard plan: A4 landscape pages, the plan scaled to the page
 * width and cut into pages by height (each page clips to its slice), vector rectangles and text
 * in the standard Helvetica fonts (WinAnsi; other characters become `?`).
 */

const PAGE_WIDTH = 842; // A4 landscape, points
const PAGE_HEIGHT = 595;
const MARGIN = 24;

const num = (n: number) => (Math.round(n * 100) / 100).toString();
const rgb = (c: Color) => c.map((v) => num(v / 255)).join(' ');

/** A PDF string literal: WinAnsi bytes, with `(`, `)` and `\` escaped. */
export function pdfString(value: string): string {
  let out = '(';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    const safe = code >= 32 && code < 127 ? char : code >= 160 && code <= 255 ? `\\${code.toString(8).padStart(3, '0')}` : '?';
    out += safe === '(' || safe === ')' || safe === '\\' ? `\\${safe}` : safe;
  }
  return `${out})`;
}

/** Helvetica advance widths are about half the font size on average; good enough to cut text to a box. */
function fit(value: string, size: number, maxWidth: number): string {
  const max = Math.floor(maxWidth / (size * 0.55));
  if (value.length <= max) return value;
  return max > 3 ? `${value.slice(0, max - 3)}...` : value.slice(0, Math.max(0, max));
}

function text(x: number, y: number, value: string, size: number, color: Color, font: 'F1' | 'F2', maxWidth: number): string {
  return `BT /${font} ${num(size)} Tf ${rgb(color)} rg ${num(x)} ${num(y)} Td ${pdfString(fit(value, size, maxWidth))} Tj ET\n`;
}

/** Content streams of the pages (PDF coordinates: origin bottom left). */
function pageContents(plan: DashboardLayoutPlan): string[] {
  const scale = (PAGE_WIDTH - 2 * MARGIN) / plan.width;
  const sliceHeight = (PAGE_HEIGHT - 2 * MARGIN) / scale; // plan units per page
  const pages = Math.max(1, Math.ceil(plan.height / sliceHeight));
  const contents: string[] = [];
  for (let page = 0; page < pages; page++) {
    const top = page * sliceHeight;
    // Plan (x, y) → page coordinates.
    const px = (x: number) => MARGIN + x * scale;
    const py = (y: number) => PAGE_HEIGHT - MARGIN - (y - top) * scale;
    let s = `${rgb(plan.background)} rg 0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT} re f\n`;
    s += `q ${num(MARGIN)} ${num(MARGIN)} ${num(PAGE_WIDTH - 2 * MARGIN)} ${num(PAGE_HEIGHT - 2 * MARGIN)} re W n\n`;
    if (page === 0) {
      s += text(px(16), py(32), plan.title, 20, plan.text, 'F2', plan.width * scale - 32 * scale);
      if (plan.subtitle) s += text(px(16), py(58), plan.subtitle, 11, plan.muted, 'F1', plan.width * scale - 32 * scale);
      if (plan.note) s += text(px(16), py(plan.headerHeight + 30), plan.note, 11, plan.muted, 'F1', plan.width * scale - 32 * scale);
    }
    for (const box of plan.widgets) {
      if (box.y + box.h < top || box.y > top + sliceHeight) continue;
      const [x, y, w, h] = [px(box.x), py(box.y + box.h), box.w * scale, box.h * scale];
      if (box.type === 'SPACER') continue;
      if (box.type === 'DIVIDER') {
        s += `${rgb(box.accent)} rg ${num(x)} ${num(y + h / 2)} ${num(w)} ${num(Math.max(1, scale))} re f\n`;
        continue;
      }
      s += `${rgb(box.fill)} rg ${rgb(box.accent)} RG 0.75 w ${num(x)} ${num(y)} ${num(w)} ${num(h)} re B\n`;
      s += `${rgb(box.accent)} rg ${num(x)} ${num(y + h - 3)} ${num(w)} 3 re f\n`;
      s += `q ${num(x)} ${num(y)} ${num(w)} ${num(h)} re W n\n`;
      s += text(x + 8, y + h - 18, box.label, 10, plan.text, 'F2', w - 16);
      if (h > 34) s += text(x + 8, y + h - 32, box.detail, 8, plan.muted, 'F1', w - 16);
      s += figurePdf(plan, box, px, py, scale, (tx, ty, value, size, color, maxWidth) => text(tx, ty, value, size, color, 'F1', maxWidth));
      s += 'Q\n';
    }
    s += 'Q\n';
    s += text(PAGE_WIDTH - MARGIN - 60, MARGIN / 2 - 3, `${page + 1} / ${pages}`, 8, plan.muted, 'F1', 60);
    contents.push(s);
  }
  return contents;
}

/** The PDF file: objects, a cross-reference table with byte offsets, trailer and `%%EOF`. */
export function renderPdf(plan: DashboardLayoutPlan, info: { title: string; createdAt: Date }): Buffer {
  const contents = pageContents(plan);
  const objects: string[] = [];
  /** Adds an object; returns its (1-based) object number. */
  const add = (body: string) => objects.push(body);
  const catalog = add('');
  const pagesObj = add('');
  const helvetica = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const helveticaBold = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  const pageIds: number[] = [];
  for (const content of contents) {
    const stream = add(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`);
    pageIds.push(
      add(
        `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
          `/Resources << /Font << /F1 ${helvetica} 0 R /F2 ${helveticaBold} 0 R >> >> /Contents ${stream} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  const d = info.createdAt;
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `D:${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
  const infoObj = add(`<< /Title ${pdfString(info.title)} /Producer (Drydock) /CreationDate (${date}) >>`);

  // Binary comment line marks the file as binary for transfer tools.
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${infoObj} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
