import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCsv, readMetadataCsv } from '../../../src/core/sweci';
import { UserError } from '../../../src/core/util/errors';

const HEADER = 'task_id,current_sha,target_sha,test_gap,repo_name';

test('rows read like csv.DictReader: BOM, CRLF, quoted fields with commas, doubled quotes and newlines', () => {
  const text =
    '\ufeff' +
    HEADER +
    '\r\n' +
    'acme-1,0123abc,4567def,5,"acme/lib, the ""core"""\r\n' +
    'acme-2,89abcde,fedcba9,12,"two\nlines"\n';
  const rows = readMetadataCsv(text, 'default.csv');
  assert.equal(rows.length, 2);
  assert.equal(rows[0].row.repo_name, 'acme/lib, the "core"');
  assert.equal(rows[0].line, 2);
  assert.equal(rows[1].row.repo_name, 'two\nlines');
  assert.equal(rows[1].row.test_gap, '12');
  assert.equal(rows[1].line, 3);
});

function problems(text: string): string[] {
  try {
    readMetadataCsv(text, 'm.csv');
  } catch (e) {
    assert.ok(e instanceof UserError);
    return [e.message, ...e.details];
  }
  assert.fail('expected the metadata to be refused');
}

test('a row with missing fields is refused naming the file, line, task and each field', () => {
  const got = problems(`${HEADER}\nacme-1,0123abc,,5,x\nacme-2,0123abc,4567def\n`);
  assert.match(got[0], /m\.csv: 2 bad metadata rows/);
  assert.ok(got.includes("m.csv:2 (task 'acme-1'): missing 'target_sha'"), got.join('\n'));
  assert.ok(got.includes("m.csv:3 (task 'acme-2'): missing 'test_gap'"), got.join('\n'));
});

test('bad values, a repeated task id and a header without a column are refused', () => {
  const got = problems(
    `${HEADER}\nacme-1,not-a-sha,4567def,five,x\nacme-3,0123abc,4567def,1,x\nacme-3,0123abc,4567def,1,x\n`,
  );
  assert.ok(
    got.some((p) => /m\.csv:2 \(task 'acme-1'\): 'current_sha' must be a commit id/.test(p)),
    got.join('\n'),
  );
  assert.ok(
    got.some((p) => /m\.csv:2 \(task 'acme-1'\): 'test_gap' must be a whole number/.test(p)),
    got.join('\n'),
  );
  assert.ok(
    got.some((p) => /m\.csv:4 \(task 'acme-3'\): the task id repeats line 3/.test(p)),
    got.join('\n'),
  );
  assert.match(problems('task_id,current_sha,test_gap\n')[0], /m\.csv:1: the header has no 'target_sha' column/);
  assert.match(problems('')[0], /empty/);
  assert.throws(() => parseCsv('a,"b\n', 'q.csv'), /q\.csv:1: a quoted field is not closed/);
});
