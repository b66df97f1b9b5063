// Lists exports of src/ that no other module imports: dead code the next engineer would have to
// read and keep working. Syntax only (no type checker), so it runs in a second: every import and
// re-export of the repository's TypeScript is resolved to a file, and names are followed through
// `export { x } from` and `export * from` chains. See CONTRIBUTING.md ("Dead exports").
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface UnusedExport {
  /** Repository-relative path, `/`-separated. */
  readonly file: string;
  readonly name: string;
  /** 1-based line of the declaration. */
  readonly line: number;
  /** The file itself uses the name: dropping `export` is enough; otherwise the code is dead. */
  readonly usedLocally: boolean;
}

interface ModuleInfo {
  /** name → line of each declaration exported from this file itself. */
  readonly own: Map<string, { line: number }>;
  /** name → (module, its name) for `export { a as b } from './m'`. */
  readonly forwarded: Map<string, { module: string; name: string }>;
  /** modules re-exported wholesale (`export * from './m'`). */
  readonly star: string[];
  readonly source: ts.SourceFile;
}

const EXTENSIONS = ['.ts', '.tsx', '.mts', '/index.ts'];

/** The name under which a module that only re-exports, and that no module imports, is reported. */
export const BARREL = '(re-exports, imported by no module)';

function resolveSpecifier(fromFile: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(fromFile), specifier);
  const plain = base.replace(/\.js$/, '');
  for (const candidate of [base, ...EXTENSIONS.map((e) => plain + e)]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function hasExportModifier(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function isDefault(node: ts.Node): boolean {
  return (
    ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)
  );
}

function declaredNames(node: ts.Node): string[] {
  if (ts.isVariableStatement(node))
    return node.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
  const named = node as ts.Node & { name?: ts.Node };
  return named.name && ts.isIdentifier(named.name) ? [named.name.text] : [];
}

/**
 * `files`: absolute paths of every TypeScript file whose imports count (sources, tests, benches,
 * scripts). `scanned`: which of them to report on. `entryPoints`: files whose exports are their
 * contract with the outside (the bundles' entries: VS Code calls `activate`).
 */
export function findUnusedExports(
  root: string,
  files: readonly string[],
  scanned: (file: string) => boolean,
  entryPoints: ReadonlySet<string>,
): UnusedExport[] {
  const modules = new Map<string, ModuleInfo>();
  const used = new Set<string>();
  const usedAll = new Set<string>();
  /** Every file some module imports or re-exports from, by any form of import. */
  const imported = new Set<string>();
  const key = (file: string, name: string) => `${file}\0${name}`;

  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const info: ModuleInfo = { own: new Map(), forwarded: new Map(), star: [], source };
    modules.set(file, info);
    const lineOf = (n: ts.Node) => source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1;

    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const target = resolveSpecifier(file, node.moduleSpecifier.text);
        if (target) imported.add(target);
        const clause = node.importClause;
        if (target && clause) {
          if (clause.name) used.add(key(target, 'default'));
          const bindings = clause.namedBindings;
          if (bindings && ts.isNamespaceImport(bindings)) usedAll.add(target);
          if (bindings && ts.isNamedImports(bindings))
            for (const el of bindings.elements) used.add(key(target, (el.propertyName ?? el.name).text));
        }
      } else if (ts.isExportDeclaration(node)) {
        const target =
          node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)
            ? resolveSpecifier(file, node.moduleSpecifier.text)
            : null;
        if (node.moduleSpecifier && !target) return;
        if (target) imported.add(target);
        if (!node.exportClause) {
          if (target) info.star.push(target);
        } else if (ts.isNamedExports(node.exportClause)) {
          for (const el of node.exportClause.elements) {
            const from = (el.propertyName ?? el.name).text;
            if (target) info.forwarded.set(el.name.text, { module: target, name: from });
            else info.own.set(el.name.text, { line: lineOf(el) });
          }
        } else if (target) {
          // export * as ns from './m': everything of m may be reached through ns
          info.own.set(node.exportClause.name.text, { line: lineOf(node) });
          usedAll.add(target);
        }
      } else if (ts.isExportAssignment(node)) {
        info.own.set('default', { line: lineOf(node) });
      } else if (hasExportModifier(node) && node.parent === source) {
        for (const name of isDefault(node) ? ['default'] : declaredNames(node))
          info.own.set(name, { line: lineOf(node) });
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const arg = node.arguments[0];
        const target = arg && ts.isStringLiteral(arg) ? resolveSpecifier(file, arg.text) : null;
        if (target) usedAll.add(target);
        if (target) imported.add(target);
      } else if (ts.isImportTypeNode(node)) {
        const arg = node.argument;
        if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) {
          const target = resolveSpecifier(file, arg.literal.text);
          if (target) usedAll.add(target);
          if (target) imported.add(target);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }

  // Follow re-exports: a use of (index, x) is a use of the module that declares x.
  const pending = [...used].map((k) => k.split('\0') as [string, string]);
  const reached = new Set<string>();
  while (pending.length) {
    const [file, name] = pending.pop()!;
    const k = key(file, name);
    if (reached.has(k)) continue;
    reached.add(k);
    const info = modules.get(file);
    if (!info) continue;
    const fwd = info.forwarded.get(name);
    if (fwd) pending.push([fwd.module, fwd.name]);
    else if (!info.own.has(name)) for (const m of info.star) pending.push([m, name]);
  }
  for (const file of usedAll) {
    const info = modules.get(file);
    if (!info) continue;
    for (const name of info.own.keys()) reached.add(key(file, name));
    for (const [name, fwd] of info.forwarded) {
      reached.add(key(file, name));
      reached.add(key(fwd.module, fwd.name));
    }
  }

  const out: UnusedExport[] = [];
  for (const [file, info] of modules) {
    if (!scanned(file) || entryPoints.has(file)) continue;
    // A barrel nobody imports: its re-exports are not declarations, so no name above reports it.
    if (!imported.has(file) && (info.forwarded.size > 0 || info.star.length > 0))
      out.push({ file: relative(root, file).split('\\').join('/'), name: BARREL, line: 1, usedLocally: false });
    if (usedAll.has(file)) continue;
    let refs: Map<string, number> | undefined;
    for (const [name, { line }] of info.own) {
      if (reached.has(key(file, name))) continue;
      refs ??= localReferences(info.source);
      out.push({
        file: relative(root, file).split('\\').join('/'),
        name,
        line,
        usedLocally: (refs.get(name) ?? 0) > 0,
      });
    }
  }
  return out.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

/**
 * How often each name is referred to in a file, declarations and `export { x }` lists left out:
 * above zero means the file itself uses the name.
 */
function localReferences(source: ts.SourceFile): Map<string, number> {
  const counts = new Map<string, number>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      const parent = node.parent as ts.Node & { name?: ts.Node };
      const isDeclaration = parent !== undefined && parent.name === node && !ts.isPropertyAccessExpression(parent);
      if (!isDeclaration && !ts.isExportSpecifier(parent)) counts.set(node.text, (counts.get(node.text) ?? 0) + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return counts;
}

/** Every tracked-or-not .ts file under the given folders of `root` (node_modules and fixtures left out). */
export function typeScriptFiles(root: string, folders: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'fixtures') walk(full);
      } else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
    }
  };
  for (const f of folders) walk(join(root, f));
  return out.sort();
}
