// package.json's contributions against the code that backs them (the GitHub Pull Requests
// extension's check): a command in a menu or button that nobody registered fails silently in
// VS Code ("command not found"), and a view without a provider stays empty forever.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const contributes = manifest.contributes;

function sources(): { file: string; text: string }[] {
  const files = [join(root, 'src', 'extension.ts')];
  for (const f of readdirSync(join(root, 'src', 'vscode'), { recursive: true, encoding: 'utf8' }))
    if (f.endsWith('.ts')) files.push(join(root, 'src', 'vscode', f));
  return files.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
}

const code = sources();
const matches = (re: RegExp): Set<string> =>
  new Set(code.flatMap(({ text }) => [...text.matchAll(re)].map((m) => m[1])));
const registeredCommands = matches(/registerCommand\(\s*'([^']+)'/g);
const treeViews = matches(/(?:createTreeView|registerTreeDataProvider|registerWebviewViewProvider)\(\s*'([^']+)'/g);
const contributedCommands: string[] = contributes.commands.map((c: { command: string }) => c.command);

test('every contributed command is registered by the extension', () => {
  assert.deepEqual(
    contributedCommands.filter((id) => !registeredCommands.has(id)),
    [],
  );
});

test('every command the extension registers is contributed (so it has a title and a category)', () => {
  assert.deepEqual(
    [...registeredCommands].filter((id) => !contributedCommands.includes(id)),
    [],
  );
});

test('every command ChainLens contributes has the ChainLens category (palette label "ChainLens: …")', () => {
  assert.deepEqual(
    contributes.commands
      .filter((c: { category?: string }) => c.category !== 'ChainLens')
      .map((c: { command: string }) => c.command),
    [],
  );
});

test('every view has a provider, and every view container a view', () => {
  const views = Object.values(contributes.views as Record<string, { id: string }[]>).flat();
  assert.ok(views.length > 0);
  assert.deepEqual(
    views.map((v) => v.id).filter((id) => !treeViews.has(id)),
    [],
  );
  for (const container of contributes.viewsContainers.activitybar)
    assert.ok(contributes.views[container.id]?.length, `container ${container.id} has no view`);
});

test('menus, welcome buttons and keybindings name only contributed commands', () => {
  const referenced: string[] = [];
  for (const entries of Object.values(contributes.menus as Record<string, { command?: string }[]>))
    for (const e of entries) if (e.command) referenced.push(e.command);
  for (const w of contributes.viewsWelcome)
    for (const m of (w.contents as string).matchAll(/\(command:([\w.]+)/g)) referenced.push(m[1]);
  // VS Code's own commands (workbench.*) are fine; any other must be ours and contributed.
  assert.deepEqual(
    referenced.filter((id) => !id.startsWith('workbench.') && !contributedCommands.includes(id)),
    [],
  );
  const views = new Set(
    Object.values(contributes.views as Record<string, { id: string }[]>)
      .flat()
      .map((v) => v.id),
  );
  assert.deepEqual(
    contributes.viewsWelcome.map((w: { view: string }) => w.view).filter((v: string) => !views.has(v)),
    [],
  );
});

test('activation: no "*", and every onView / onWebviewPanel event names something that exists', () => {
  const events: string[] = manifest.activationEvents;
  assert.ok(!events.includes('*') && !events.includes('onStartupFinished'), 'ChainLens activates on demand');
  assert.ok(
    events.includes('workspaceContains:.git/chainlens/state'),
    'a ChainLens work tree (its pointer to the state folder) resumes its run on open',
  );
  assert.ok(
    events.includes('workspaceContains:.git/chainlens/current'),
    'a work tree of the old layout activates too, and its state is migrated on open',
  );
  const views = new Set(
    Object.values(contributes.views as Record<string, { id: string }[]>)
      .flat()
      .map((v) => v.id),
  );
  for (const e of events.filter((x) => x.startsWith('onView:'))) assert.ok(views.has(e.slice('onView:'.length)), e);
  // A webview panel activation event needs a serializer for that view type (else it restores nothing).
  const serializers = code
    .filter(({ text }) => text.includes('registerWebviewPanelSerializer('))
    .map(({ text }) => text)
    .join('\n');
  const viewTypes = matches(/const \w*VIEW_TYPE = '([^']+)'/g);
  for (const e of events.filter((x) => x.startsWith('onWebviewPanel:'))) {
    const viewType = e.slice('onWebviewPanel:'.length);
    assert.ok(
      viewTypes.has(viewType) || serializers.includes(`'${viewType}'`),
      `${e}: no serializer for that view type`,
    );
  }
  assert.ok(serializers.length > 0);
});

test('every chainlens.* setting the code reads is contributed, with a default', () => {
  const properties = contributes.configuration.properties as Record<string, { default?: unknown }>;
  const read = new Set<string>();
  for (const { text } of code) {
    if (!text.includes("getConfiguration('chainlens')")) continue;
    for (const m of text.matchAll(/(?:text|get<[^>]+>|get)\(\s*'([\w.]+)'/g)) read.add(`chainlens.${m[1]}`);
  }
  assert.ok(read.size >= 5, `found the settings read: ${[...read].join(', ')}`);
  assert.deepEqual(
    [...read].filter((k) => !(k in properties)),
    [],
  );
  for (const [key, p] of Object.entries(properties)) assert.ok('default' in p, `${key} has no default`);
});

test('icons and media the manifest and the code name exist', () => {
  const paths = [
    contributes.viewsContainers.activitybar[0].icon,
    manifest.icon,
    'media/problem-light.svg',
    'media/problem-dark.svg',
    'media/problemStatement.css',
    'media/codicons/codicon.css',
    'media/codicons/codicon.ttf',
  ];
  assert.deepEqual(
    paths.filter((p) => !existsSync(join(root, p))),
    [],
  );
});

test('the codicon font shipped in media/ is the installed @vscode/codicons (webviews cannot load it from node_modules once packaged)', () => {
  for (const file of ['codicon.css', 'codicon.ttf']) {
    assert.ok(
      readFileSync(join(root, 'media', 'codicons', file)).equals(
        readFileSync(join(root, 'node_modules', '@vscode', 'codicons', 'dist', file)),
      ),
      `media/codicons/${file} differs: copy it from node_modules/@vscode/codicons/dist`,
    );
  }
});

test('contributed theme colours have defaults for every theme kind', () => {
  for (const color of contributes.colors)
    assert.deepEqual(
      Object.keys(color.defaults).sort(),
      ['dark', 'highContrast', 'highContrastLight', 'light'],
      color.id,
    );
  const used = matches(/'(chainlens\.step\w+Foreground)'/g);
  const declared = new Set(contributes.colors.map((c: { id: string }) => c.id));
  assert.deepEqual(
    [...used].filter((c) => !declared.has(c)),
    [],
  );
});

test('Restricted Mode is declared as limited support, with the settings that pick an engine or image restricted', () => {
  const trust = manifest.capabilities.untrustedWorkspaces;
  assert.equal(trust.supported, 'limited');
  assert.deepEqual([...trust.restrictedConfigurations].sort(), [
    'chainlens.docker.context',
    'chainlens.docker.host',
    'chainlens.image',
    'chainlens.repoPathInImage',
  ]);
});

/** Does the palette's fuzzy filter, typed `typed`, also match `title`? (characters in order, case-insensitive) */
function fuzzyMatches(typed: string, title: string): boolean {
  let at = 0;
  for (const ch of title.toLowerCase()) if (ch === typed[at]?.toLowerCase()) at++;
  return at === typed.length;
}

test("no command title is also matched by typing another's (a name never ranks under one it shadows)", () => {
  const titles: string[] = contributes.commands.map((c: { title: string }) => c.title.replace(/…$/, ''));
  const shadowed = titles.flatMap((a) => titles.filter((b) => b !== a && fuzzyMatches(a, b)).map((b) => `${a} ⊂ ${b}`));
  assert.deepEqual(shadowed, []);
});
