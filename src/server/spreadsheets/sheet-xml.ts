import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { unreadable } from './sheet-limits.js';
import { streamEntry, type Zip } from './zip-limits.js';

/** An XLSX part's XML, read as a stream as it inflates. */

/** A SAX parser whose element names lose their namespace prefix (some writers use `x:c`). */
function xmlParser(handlers: { open?: (name: string, tag: SaxesTagPlain) => void; close?: (name: string) => void; text?: (text: string) => void }) {
  const parser = new SaxesParser();
  const local = (name: string) => name.slice(name.indexOf(':') + 1);
  if (handlers.open) parser.on('opentag', (tag) => handlers.open!(local(tag.name), tag));
  if (handlers.close) parser.on('closetag', (tag) => handlers.close!(local(tag.name)));
  if (handlers.text) parser.on('text', handlers.text);
  parser.on('error', () => {
    throw unreadable();
  });
  return parser;
}

export async function readXml(zip: Zip, path: string, budget: { left: number }, handlers: Parameters<typeof xmlParser>[0]): Promise<boolean> {
  const entry = zip.entries.get(path);
  if (!entry) return false;
  const parser = xmlParser(handlers);
  await streamEntry(zip, entry, budget, (text) => void parser.write(text));
  parser.close();
  return true;
}
