import { decodeText, detectDelimiter } from './csv-sniff.js';
import { RowCollector, type Cell, type SheetData, type SheetRequest } from './sheet-rows.js';

/** RFC 4180 fields: quoted fields may hold separators, doubled quotes and line breaks. */
export function readCsv(bytes: Buffer, request: SheetRequest): SheetData {
  const text = decodeText(bytes);
  const collector = new RowCollector(request);
  const delimiter = detectDelimiter(text);
  let field = '';
  let column = 0;
  let cells = new Map<number, Cell>();
  let hadValue = false;
  let quoted = false;
  let line = 1;
  let rowStart = 1;
  const endField = () => {
    collector.countCell();
    if (field.trim() !== '') {
      collector.sawValueAt(column);
      hadValue = true;
      if (collector.wants(column)) cells.set(column, { kind: 'text', value: field });
    }
    field = '';
    column++;
  };
  const endRow = () => {
    endField();
    collector.endRow(rowStart, cells, hadValue);
    cells = new Map();
    hadValue = false;
    column = 0;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
      continue;
    }
    if (ch === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (ch === delimiter) endField();
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowStart = line;
    } else field += ch;
  }
  if (field !== '' || column > 0) endRow();
  return collector.result();
}
