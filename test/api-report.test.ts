import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { describe, expect, it } from 'vitest';

// The public API report (docs/api/ckg-wasm.api.md) is committed and reviewed like code: this
// fails when the built declarations no longer match it. `npm run api:update` refreshes it.
describe('public API report', () => {
  it('matches the built declarations', () => {
    const config = ExtractorConfig.loadFileAndPrepare(fileURLToPath(new URL('../api-extractor.json', import.meta.url)));
    const messages: string[] = [];
    const result = Extractor.invoke(config, {
      localBuild: false,
      messageCallback: (message) => {
        if (message.logLevel === 'error' || message.messageId === 'console-api-report-changed') messages.push(message.text);
        message.handled = true;
      },
    });
    expect(messages).toEqual([]);
    expect(result.apiReportChanged).toBe(false);
    expect(result.succeeded).toBe(true);
  });
});
