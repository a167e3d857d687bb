/**
 * The helpers that keep foreign text (server answers, APK strings) inert, tested alone: the
 * sanitizer behind every printed line, the Output on a terminal, the job summary's Markdown, the
 * dotenv writer, the server-sent events reader's limits and the cleartext-URL warning.
 */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { CliError } from '../src/api/errors.js';
import { readServerEvents } from '../src/api/sse.js';
import { dotenvLines, failureMarkdown, markdownText, summaryMarkdown } from '../src/ciFiles.js';
import { cleartextWarning } from '../src/config.js';
import type { ConvertResult } from '../src/convertResult.js';
import { Output } from '../src/output.js';
import { indentedText, sanitize } from '../src/safeText.js';

const HOSTILE = 'a\x1b]0;titulo\x07b\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\x1b[1;31mc\x9b2Jd\u202ee\n::add-mask::s\r\n \t::error::x ##[group]g';

function runnerCommands(text: string): string[] {
  return text.split('\n').filter((l) => l.trimStart().startsWith('::') || l.includes('##['));
}

function fakeStream(isTTY: boolean): NodeJS.WriteStream & { text: string } {
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      (stream as unknown as { text: string }).text += chunk.toString('utf8');
      cb();
    },
  }) as unknown as NodeJS.WriteStream & { text: string };
  stream.text = '';
  stream.isTTY = isTTY;
  stream.columns = 80;
  return stream;
}

async function* chunks(parts: (string | Buffer)[]): AsyncGenerator<string | Buffer> {
  for (const p of parts) yield p;
}

/** What reading the whole stream throws (undefined when it ends normally). */
async function readingFails(stream: AsyncIterable<string | Buffer>): Promise<unknown> {
  try {
    for await (const e of readServerEvents(stream)) void e;
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('foreign text', () => {
  it('sanitize_escapesControlsAndWorkflowCommands_removedOrDefused', () => {
    const multi = sanitize(HOSTILE);
    // eslint-disable-next-line no-control-regex
    expect(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/.test(multi), JSON.stringify(multi)).to.equal(false);
    expect(runnerCommands(multi)).to.deep.equal([]);
    expect(multi.split('\n')).to.have.length(3);
    expect(multi).to.contain('ablinkcde');
    const single = sanitize(HOSTILE, false);
    expect(single).not.to.contain('\n');
    expect(runnerCommands(single)).to.deep.equal([]);
    expect(sanitize('::warning::x', false)).to.equal('» ::warning::x');
  });

  it('indentedText_multiLineLog_furtherLinesIndented', () => {
    expect(indentedText('um\ndois\r\n::três')).to.equal('um\n    dois\n    » ::três');
  });

  it('output_resultOnATerminal_stillSanitized', () => {
    const out = fakeStream(true);
    const err = fakeStream(true);
    new Output({}, err, out).result({}, [`Erro: ${HOSTILE}`]);
    // eslint-disable-next-line no-control-regex
    expect(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/.test(out.text), JSON.stringify(out.text)).to.equal(false);
    expect(runnerCommands(out.text)).to.deep.equal([]);
  });

  it('output_failureMessageWithNewlines_oneLineOnStderr_jsonEscapesC1', () => {
    const out = fakeStream(false);
    const err = fakeStream(false);
    new Output({ json: true }, err, out).failure(new CliError('X', 'falhou\n::add-mask::s\x85\u2028', 6));
    expect(err.text.split('\n').filter(Boolean)).to.have.length(1);
    expect(runnerCommands(err.text)).to.deep.equal([]);
    expect(out.text).not.to.match(/[\x85\u2028]/);
    expect((JSON.parse(out.text) as { error: { message: string } }).error.message).to.equal('falhou\n::add-mask::s\x85\u2028');
  });

  it('summaryMarkdown_hostilePackageWarningsAndCodes_inertMarkdown', () => {
    const result: ConvertResult = {
      mode: 'server',
      conversionId: '0b7c6f3e-2f7a-4d55-9a55-3f1c2b9d8e11',
      output: '/tmp/app.aab',
      bytes: 10,
      sha256: 'x',
      app: { packageName: 'com.x`<img src=x onerror=alert(1)>|', versionName: '[clique](https://evil) **1**', versionCode: 1 },
      inputBytes: 5,
      signature: null,
      downloadSizes: [],
      warnings: [{ code: 'W`<b>', message: '<script>x</script> ![i](https://evil/i.png)\n| falso | linha |' }],
      checklist: [{ code: 'pageSize16k', status: 'blocker', title: 'lib/arm64-v8a/<img src=x>.so **1**', action: '[clique](https://evil)\n| falso |' }],
    };
    const md = summaryMarkdown(result);
    expect(md).not.to.match(/<img|<script|<b>|\]\(|!\[|\*\*1\*\*/);
    for (const line of md.split('\n').filter((l) => l.startsWith('| '))) expect(line.split(/(?<!\\)\|/).length, line).to.be.at.most(4);
    expect(markdownText('a_b*c')).to.equal('a&#95;b&#42;c');
    expect(failureMarkdown({ code: 'X`', message: '<a href=x>', conversionId: 'y\n# h' })).not.to.match(/<a |\n# h/);
  });

  it('summaryMarkdown_plainPackage_staysACodeSpan', () => {
    const md = summaryMarkdown({
      mode: 'local', conversionId: null, output: '/tmp/app.aab', bytes: 1, sha256: '', app: { packageName: 'com.example.app', versionName: '1.0', versionCode: 1 },
      inputBytes: 1, signature: null, downloadSizes: [], warnings: [], checklist: [],
    });
    expect(md).to.contain('| App | `com.example.app` |').and.contain('| Versão | 1.0 (código 1) |');
  });

  it('dotenvLines_valueWithNewline_refused', () => {
    expect(dotenvLines({ A: 'x', B: '' })).to.equal('A=x\nB=\n');
    expect(() => dotenvLines({ AABIFY_AAB: 'a\nEVIL=1' })).to.throw(CliError).with.property('code', 'DOTENV_VALUE_INVALID');
    expect(() => dotenvLines({ AABIFY_AAB: 'a\rEVIL=1' })).to.throw(CliError);
  });

  it('readServerEvents_eventsSplitAcrossChunks_sameEvents', async () => {
    const events = [];
    for await (const e of readServerEvents(chunks(['data: {"a"', ':1}\r', '\n\r\nevent: x\ndata: 2\n', '\n', 'data: 3\r', '\r']))) events.push(e);
    expect(events).to.deep.equal([
      { event: 'message', data: '{"a":1}' },
      { event: 'x', data: '2' },
      { event: 'message', data: '3' },
    ]);
  });

  it('readServerEvents_newlineFreeStream_refusedPastTheCap', async () => {
    const piece = Buffer.alloc(64 * 1024, 0x61);
    async function* endless(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 10_000; i++) yield piece;
    }
    expect(await readingFails(endless())).to.be.instanceOf(CliError).with.property('code', 'SSE_EVENT_TOO_LARGE');
  });

  it('readServerEvents_manyDataLinesInOneEvent_refusedPastTheCap', async () => {
    const line = `data: ${'b'.repeat(1000)}\n`;
    async function* endless(): AsyncGenerator<string> {
      for (let i = 0; i < 5000; i++) yield line;
    }
    expect(await readingFails(endless())).to.be.instanceOf(CliError).with.property('code', 'SSE_EVENT_TOO_LARGE');
  });

  it('cleartextWarning_httpOffThisMachine_warned_loopbackAndHttpsNot', () => {
    expect(cleartextWarning('http://aabify.empresa.lan:3000')).to.contain('sem criptografia');
    expect(cleartextWarning('http://192.168.0.10')).to.contain('192.168.0.10');
    for (const url of ['https://aabify.com.br', 'http://localhost:3000', 'http://127.0.0.1:9', 'http://[::1]:3000']) expect(cleartextWarning(url), url).to.equal(undefined);
  });
});
