import { afterEach, describe, expect, it } from 'vitest';
import { displayDestination, registerDestinationSecrets } from '../../../src/kinds/logpush/destination.js';
import { normaliseOutputOptions } from '../../../src/kinds/logpush/jobs.js';
import { clearSecrets, redact } from '../../../src/redact.js';

afterEach(() => clearSecrets());

describe('output options normalisation', () => {
  it('drops nulls and API defaults, merges the misspelt CVE key, reads boolean strings', () => {
    expect(
      normaliseOutputOptions({
        output_type: 'ndjson',
        sample_rate: 1,
        timestamp_format: 'unixnano',
        record_prefix: '{',
        record_suffix: '}\n',
        field_delimiter: ',',
        batch_prefix: null,
        'CVE-2021-4428': 'true',
        field_names: ['RayID', 'ClientIP'],
      }),
    ).toEqual({ 'CVE-2021-44228': true, field_names: ['RayID', 'ClientIP'] });
  });

  it('keeps framing options for csv, where the ndjson defaults do not apply', () => {
    expect(normaliseOutputOptions({ output_type: 'csv', field_delimiter: ',' })).toEqual({
      output_type: 'csv',
      field_delimiter: ',',
    });
  });
});

describe('destinations', () => {
  const conf = 'azure://logs/http?sv=2023-01-03&sig=Q2hhbmdlTWUlMkJwbGVhc2U%3D&region=westeurope';

  it('are shown masked with a digest of their secret parts', () => {
    const shown = displayDestination(conf);
    expect(shown.destination_conf).toBe('azure://logs/http?sv=[REDACTED]&sig=[REDACTED]&region=westeurope');
    expect(shown.destination_credentials).toMatch(/^sha256:[0-9a-f]{12}$/);
    expect(displayDestination(conf.replace('Q2hh', 'QQQQ')).destination_credentials).not.toBe(
      shown.destination_credentials,
    );
    expect(displayDestination('s3://bucket/x?region=us-east-1')).toEqual({
      destination_conf: 's3://bucket/x?region=us-east-1',
    });
  });

  it('register their secrets in raw and percent-encoded forms', () => {
    registerDestinationSecrets(conf);
    expect(redact(`GET ${conf}`)).not.toContain('Q2hhbmdlTWUlMkJwbGVhc2U');
    expect(redact('Q2hhbmdlTWUlMkJwbGVhc2U%3D')).toBe('[REDACTED]');
    expect(redact('Q2hhbmdlTWUlMkJwbGVhc2U=')).toBe('[REDACTED]');
  });

  it('register only credentials: harmless values are never masked elsewhere', () => {
    registerDestinationSecrets(
      'https://c.example.net/in?tag=example.com&sourcetype=logpush&index=main-index&header_Content-Type=application/json',
    );
    registerDestinationSecrets(conf);
    const text =
      'zone example.com: logpush job created 2023-01-03 (sourcetype logpush, main-index, application/json)';
    expect(redact(text)).toBe(text);
    // and the digest still covers them: changing a hidden harmless value shows as a change
    const a = displayDestination('https://c.example.net/in?tag=example.com');
    expect(a.destination_conf).toBe('https://c.example.net/in?tag=[REDACTED]');
    expect(displayDestination('https://c.example.net/in?tag=example.org').destination_credentials).not.toBe(
      a.destination_credentials,
    );
  });

  it('register header values, tokens, keys, signatures and user-info passwords', () => {
    registerDestinationSecrets(
      'https://ops:pa55w0rd-x@c.example.net/in?header_Authorization=Splunk%20abc123def&api_key=k3y-value-1&X-Amz-Signature=f00dfeed99&auth=Opaque-1234',
    );
    registerDestinationSecrets('https://0123456789abcdefTOKEN@h.example/x');
    for (const secret of ['pa55w0rd-x', 'Splunk abc123def', 'k3y-value-1', 'f00dfeed99', 'Opaque-1234']) {
      expect(redact(`x ${secret} y`)).toBe('x [REDACTED] y');
    }
    expect(redact('0123456789abcdefTOKEN')).toBe('[REDACTED]');
    // a user name alone is not a secret
    expect(redact('user ops')).toBe('user ops');
  });
});
