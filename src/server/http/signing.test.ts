import { describe, expect, it } from 'vitest';
import { isSameSignature, readSignedValue, signatureOf, signedValue } from './signing.js';

const secret = Buffer.alloc(32, 7);
const otherSecret = Buffer.alloc(32, 8);

describe('the server’s signatures', () => {
  // Fixed vectors: links already sent in mails (an unsubscribe link never expires) and cookies
  // already in browsers must keep their meaning when the code around them changes.
  it('signs the purpose and the parts, NUL-separated, as links and cookies already out there were signed', () => {
    const payload = 'eyJyIjoiZ3VhcmRpYW46MTIiLCJrIjoiYXR0ZW5kYW5jZS1kaWdlc3QifQ';
    expect(signatureOf(secret, 'notice-unsubscribe', payload)).toBe('eFEguHhOiPxnodkKUrOrv1YP6HYro_rO3BlpbY_Mw-M');
    expect(signatureOf(secret, 'csrf', 'session', 'abc')).toBe('zqiCcZXMOsl5CNzdXUj67Ry5jDbx6y-1G-ToEUbu1Q8');
    expect(signatureOf(secret, 'second-factor', 5, 1, 1_700_000_000_000, '$argon2id$x')).toBe('LRCFn_JLABtKmJFY86SQdEumYbpcLqUTA-ubidQ5KlU');
    expect(signedValue(secret, 'notice-unsubscribe', { r: 'guardian:12', k: 'attendance-digest' })).toBe(`${payload}.eFEguHhOiPxnodkKUrOrv1YP6HYro_rO3BlpbY_Mw-M`);
  });

  it('tells a signature from another of the same length and of another length', () => {
    const signature = signatureOf(secret, 'csrf', 'session', 'abc');
    expect(isSameSignature(signature, signatureOf(secret, 'csrf', 'session', 'abc'))).toBe(true);
    expect(isSameSignature(signature, signatureOf(secret, 'csrf', 'session', 'abd'))).toBe(false);
    expect(isSameSignature(signature, signature.slice(1))).toBe(false);
    expect(isSameSignature('', signature)).toBe(false);
  });

  it('reads back a signed value, and nothing from one changed, signed for another use or with another secret', () => {
    const token = signedValue(secret, 'oidc', { p: 'school', e: 1 });
    expect(readSignedValue(secret, 'oidc', token)).toEqual({ p: 'school', e: 1 });
    const [payload, signature] = token.split('.') as [string, string];
    const changed = Buffer.from(JSON.stringify({ p: 'school', e: 2 })).toString('base64url');
    expect(readSignedValue(secret, 'oidc', `${changed}.${signature}`)).toBeUndefined();
    expect(readSignedValue(secret, 'oidc', `${payload}.${signature.slice(0, -1)}x`)).toBeUndefined();
    expect(readSignedValue(secret, 'notice-unsubscribe', token)).toBeUndefined();
    expect(readSignedValue(otherSecret, 'oidc', token)).toBeUndefined();
    expect(readSignedValue(secret, 'oidc', `${token}.more`)).toBeUndefined();
    expect(readSignedValue(secret, 'oidc', payload)).toBeUndefined();
    expect(readSignedValue(secret, 'oidc', '')).toBeUndefined();
    // A signed payload that is not JSON (signed by the server, but never by signedValue).
    const notJson = Buffer.from('{not json').toString('base64url');
    expect(readSignedValue(secret, 'oidc', `${notJson}.${signatureOf(secret, 'oidc', notJson)}`)).toBeUndefined();
  });
});
