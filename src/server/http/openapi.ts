import { z } from 'zod';
import { ApiErrorSchema } from '../../shared/api-error.js';

/** The error answers most routes can give, for the OpenAPI page (docs/requirements.md R15). */
export const errorResponses = {
  400: ApiErrorSchema,
  401: ApiErrorSchema,
  403: ApiErrorSchema,
  404: ApiErrorSchema,
  409: ApiErrorSchema,
  429: ApiErrorSchema,
} as const;

/** A binary answer (a PDF or a spreadsheet) in the OpenAPI page. */
export const FileAnswer = z.any().describe('The file');
