import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, apiRequest, SERVER_TROUBLE_MESSAGE } from './api-client.js';

/**
 * How the client words failures that are not the portal's own error body: a proxy or gateway in
 * front of the portal answering with its own page (a real HTTP server here, not a mocked fetch).
 */

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    if (request.url === '/proxy-500') {
      response.writeHead(500, 'Internal Server Error', { 'content-type': 'text/plain' });
      response.end('Internal Server Error');
    } else if (request.url === '/proxy-502') {
      response.writeHead(502, 'Bad Gateway', { 'content-type': 'text/html' });
      response.end('<h1>502 Bad Gateway</h1>');
    } else {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: 'Something went wrong on our side. Please try again.', code: 'internal' }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function failure(path: string): Promise<ApiError> {
  const error: unknown = await apiRequest(`${base}${path}`, { schema: z.object({}) }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('errors without the portal’s error body', () => {
  it("never shows a proxy's status text such as 'Internal Server Error'", async () => {
    for (const path of ['/proxy-500', '/proxy-502']) {
      const error = await failure(path);
      expect(error.displayMessage).toBe(SERVER_TROUBLE_MESSAGE);
      expect(error.code).toBe('internal');
    }
  });

  it("shows the portal's own message when the body is one", async () => {
    expect((await failure('/portal-500')).displayMessage).toBe('Something went wrong on our side. Please try again.');
  });
});
