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
    for (const word of ['receiver', 'v1', 'http', 'logs-2024-11-22', 'aaaaaaaaaaaaaaaaaaaaaaaa'])
      expect(isTokenSegment(word)).toBe(false);
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
