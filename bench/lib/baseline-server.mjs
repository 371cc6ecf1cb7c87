// The baselines, in their own process like the portal: a bare Fastify app over a
// copy of the same SQLite database, with no sessions, no validation, no ORM, no audit: one raw
// better-sqlite3 statement per request, a one-page pdfmake document, and a bare exceljs
// streaming writer. What the portal does beyond these is what the ratios price.
//
// Env: BENCH_DB (SQLite file), BENCH_DIST (the built dist/ folder). Prints
// "BASELINE listening on http://127.0.0.1:PORT" when ready.

import path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import SQLite from 'better-sqlite3';
import ExcelJS from 'exceljs';

const dist = process.env.BENCH_DIST;
const dbFile = process.env.BENCH_DB;
if (!dist || !dbFile) throw new Error('BENCH_DIST and BENCH_DB are required');

const { renderPdf } = await import(pathToFileURL(path.join(dist, 'server/pdf/render-on-pool.js')).href);
const { SQLITE_PRAGMAS } = await import(pathToFileURL(path.join(dist, 'server/db/database.js')).href);

// The pragmas the portal's database.ts sets (the same list), so only the work per request differs.
const sqlite = new SQLite(dbFile);
for (const pragma of SQLITE_PRAGMAS) sqlite.pragma(pragma);
const { REGISTRATION_FIELDS } = await import(pathToFileURL(path.join(dist, 'shared/registration.fields.js')).href);

const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });

// autosave: one raw UPDATE per request.
const update = sqlite.prepare('UPDATE students SET home_address = ?, updated_at = ? WHERE id = ?');
app.post('/baseline/update', async (request) => {
  const { id, home_address: value } = request.body;
  update.run(value, new Date().toISOString(), id);
  return { ok: true };
});

// record: one raw SELECT per request.
const select = sqlite.prepare('SELECT * FROM students WHERE id = ?');
app.get('/baseline/record/:id', async (request) => [select.get(request.params.id)]);

// report-card: a bare one-page pdfmake document through the portal's own renderer.
app.get('/baseline/pdf', async (_request, reply) => {
  const bytes = await renderPdf({
    pageSize: 'LETTER',
    content: [{ text: 'Report card', fontSize: 16, bold: true }, { text: 'One page, one paragraph: the bare pdfmake baseline.' }],
  });
  return reply.header('content-type', 'application/pdf').send(bytes);
});

// export: the same rows and columns as 'Registration Data.xlsx' (Student ID, every catalogue
// field, the six progress flags, Last Updated) straight from one SELECT into exceljs's streaming
// writer, values as stored.
const PROGRESS = ['student_data', 'family_data', 'health_data', 'other_data', 'documents', 'submit'];
const fieldNames = REGISTRATION_FIELDS.map((field) => field.name);
const exportRows = sqlite.prepare(
  `SELECT s.id, ${fieldNames.map((name) => `s."${name}"`).join(', ')}, ${PROGRESS.map((flag) => `p.${flag}`).join(', ')}, s.updated_at
   FROM students s LEFT JOIN registration_progress p ON p.student_id = s.id ORDER BY s.id`,
);
const headers = ['Student ID', ...REGISTRATION_FIELDS.map((field) => field.label), ...PROGRESS, 'Last Updated'];
app.get('/baseline/export', async (_request, reply) => {
  const out = new PassThrough();
  const write = async () => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const sheet = workbook.addWorksheet('Registration Data');
    sheet.addRow(headers).commit();
    const rows = exportRows.raw(true).all();
    for (let i = 0; i < rows.length; i++) {
      sheet.addRow(rows[i]).commit();
      // Let the reply drain every 500 rows, as the portal's paged export does.
      if ((i + 1) % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error) => out.destroy(error));
  return reply.header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet').send(out);
});

app.get('/baseline/health', async () => ({ ok: true }));

const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`BASELINE listening on ${address}\n`);
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    void app.close().then(() => {
      sqlite.close();
      process.exit(0);
    });
  });
}
