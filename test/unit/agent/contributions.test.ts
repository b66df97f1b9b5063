// VS Code reads the language-model tools' names and schemas from package.json before the
// extension runs: they must be the tools the code serves, schema for schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_TOOLS } from '../../../src/core/agent/tools';
import { SWECI_TOOLS } from '../../../src/core/sweci/tools';

const pkg = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8'));

test('package.json languageModelTools are exactly the agent tools and the SWE-CI tools, with the same descriptions and schemas', () => {
  const contributed = pkg.contributes.languageModelTools as {
    name: string;
    modelDescription: string;
    inputSchema: unknown;
  }[];
  assert.deepEqual(
    contributed.map((t) => t.name),
    [...AGENT_TOOLS.map((t) => `chainlens_${t.name}`), ...SWECI_TOOLS.map((t) => `chainlens_sweci_${t.name}`)],
  );
  for (const tool of SWECI_TOOLS) {
    const c = contributed.find((t) => t.name === `chainlens_sweci_${tool.name}`)!;
    assert.equal(c.modelDescription, tool.description);
    assert.deepEqual(c.inputSchema, tool.inputSchema);
  }
  for (const tool of AGENT_TOOLS) {
    const c = contributed.find((t) => t.name === `chainlens_${tool.name}`)!;
    assert.equal(c.modelDescription, tool.description);
    assert.deepEqual(c.inputSchema, tool.inputSchema);
  }
});

test('the MCP server definition provider is contributed under the id the extension registers', () => {
  assert.deepEqual(
    pkg.contributes.mcpServerDefinitionProviders.map((p: { id: string }) => p.id),
    ['chainlens.mcp'],
  );
  assert.deepEqual(pkg.contributes.configuration.properties['chainlens.agent.testFeedback'].enum, [
    'none',
    'summary',
    'full',
  ]);
});
