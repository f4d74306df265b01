/**
 * Which parts of a Logpush destination are credentials: query values that go by credential names,
 * user info, and tokens in the path (collector URLs). Labels of the logs (Datadog's `ddsource`,
 * Splunk's `sourcetype`) are not, and must never be registered as secrets.
 */
import { describe, expect, it } from 'vitest';
import { referenceSecrets } from '../../../src/kinds/logpush/export.js';
import {
  destinationSecrets,
  isTokenSegment,
  maskDestination,
  maskedDestinationParts,
} from '../../../src/rules/logpush/index.js';

const SUMO = 'sumo://endpoint1.collection.us2.sumologic.com/receiver/v1/http/ZaVnC4dhaV3SECRETPATHTOKENxyz';

describe('tokens in the path', () => {
  it('takes long runs of letters and digits for tokens, not path words', () => {
    expect(isTokenSegment('ZaVnC4dhaV3SECRETPATHTOKENxyz')).toBe(true);
    for (const word of [
      'receiver',
      'v1',
      'http',
      'logs-2024-11-22',
      'aaaaaaaaaaaaaaaaaaaaaaaa',
      'cloudflare-logs-2024',
      'http_requests_2024_11',
    ])
      expect(isTokenSegment(word), word).toBe(false);
  });

  it('never takes a bucket prefix for a token', () => {
    const s3 = 's3://bucket/ZaVnC4dhaV3SECRETPATHTOKENxyz/logs?region=us-east-1';
    expect(destinationSecrets(s3)).toEqual([]);
    expect(maskDestination(s3)).toBe(s3);
  });

  it('masks, registers and exports a token in the path', () => {
    expect(maskDestination(SUMO)).toBe(
      'sumo://endpoint1.collection.us2.sumologic.com/receiver/v1/http/[REDACTED]',
    );
    expect(destinationSecrets(SUMO)).toEqual(['ZaVnC4dhaV3SECRETPATHTOKENxyz']);
    expect(maskedDestinationParts(SUMO)).toEqual(['ZaVnC4dhaV3SECRETPATHTOKENxyz']);
    const ref = referenceSecrets(SUMO, (part) => `SUMO_${part.replace(/\W/g, '_').toUpperCase()}`);
    expect(ref.conf).toBe(
      'sumo://endpoint1.collection.us2.sumologic.com/receiver/v1/http/${env:SUMO_PATH_TOKEN}',
    );
    expect(ref.variables).toEqual([{ name: 'SUMO_PATH_TOKEN', part: 'the token in the path' }]);
  });
});

describe('parameters nobody listed', () => {
  it('are credentials when their value looks generated, and not when it is a word or a host', () => {
    const conf = 'https://fn.example.net/api/logs?code=aGVsbG8gd29ybGQ0MjQyNDI0Mg%3D%3D&tag=example.com';
    expect(destinationSecrets(conf)).toEqual(['aGVsbG8gd29ybGQ0MjQyNDI0Mg==']);
    // by name: a passphrase or an hmac is a credential however short its value
    expect(destinationSecrets('https://h.example/x?passphrase=correct-horse&hmac=0a1b2c')).toEqual([
      'correct-horse',
      '0a1b2c',
    ]);
  });
});

describe('labels of the logs', () => {
  const DATADOG =
    'datadog://http-intake.logs.datadoghq.com/api/v2/logs?header_DD-API-KEY=0123456789abcdef0123&ddsource=cloudflare&service=edge&ddtags=env:prod';

  it('are shown and exported as they are; only the key is a secret', () => {
    expect(destinationSecrets(DATADOG)).toEqual(['0123456789abcdef0123']);
    expect(maskDestination(DATADOG)).toBe(
      'datadog://http-intake.logs.datadoghq.com/api/v2/logs?header_DD-API-KEY=[REDACTED]&ddsource=cloudflare&service=edge&ddtags=env:prod',
    );
    const ref = referenceSecrets(DATADOG, () => 'DD_KEY');
    expect(ref.conf).toBe(
      'datadog://http-intake.logs.datadoghq.com/api/v2/logs?header_DD-API-KEY=${env:DD_KEY}&ddsource=cloudflare&service=edge&ddtags=env:prod',
    );
  });
});
