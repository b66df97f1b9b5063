/**
 * Just enough of Python's xml.etree.ElementTree.fromstring for the doctest parser: elements,
 * attributes, text skipped, entity and character references, comments, CDATA, processing
 * instructions. Input that expat refuses (unclosed or mismatched tags, bad references, characters
 * XML forbids, a missing root) throws XmlError, as ET raises ParseError.
 */
export interface XmlElement {
  readonly tag: string;
  readonly attrs: ReadonlyMap<string, string>;
  readonly children: XmlElement[];
}

export class XmlError extends Error {}

// XML 1.0 (fifth edition) NameStartChar and NameChar.
const NAME_START =
  ':A-Z_a-z\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u02ff\\u0370-\\u037d\\u037f-\\u1fff\\u200c\\u200d\\u2070-\\u218f\\u2c00-\\u2fef\\u3001-\\ud7ff\\uf900-\\ufdcf\\ufdf0-\\ufffd\\u{10000}-\\u{effff}';
const NAME = new RegExp(`[${NAME_START}][${NAME_START}\\-.0-9\\u00b7\\u0300-\\u036f\\u203f\\u2040]*`, 'uy');
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XML_SPACE = /[ \t\n\r]*/y;
// Characters XML 1.0 allows: tab, newline, carriage return, and the printable planes.
const FORBIDDEN = /[^\t\n\r\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function parseXml(text: string): XmlElement {
  if (FORBIDDEN.test(text)) throw new XmlError('not well-formed (invalid token)');
  let pos = 0;
  const stack: {
    tag: string;
    qname: string;
    ns: Map<string, string>;
    attrs: Map<string, string>;
    children: XmlElement[];
  }[] = [];
  let root: XmlElement | null = null;

  const fail = (what: string): never => {
    throw new XmlError(what);
  };
  const skipSpace = () => {
    XML_SPACE.lastIndex = pos;
    XML_SPACE.exec(text);
    pos = XML_SPACE.lastIndex;
  };
  const name = (): string => {
    NAME.lastIndex = pos;
    const m = NAME.exec(text);
    if (!m) return fail('not well-formed (invalid token)');
    pos = NAME.lastIndex;
    return m[0];
  };
  const skipPast = (end: string) => {
    const i = text.indexOf(end, pos);
    if (i < 0) fail('unclosed token');
    pos = i + end.length;
  };

  while (pos < text.length) {
    const lt = text.indexOf('<', pos);
    const chunk = text.slice(pos, lt < 0 ? text.length : lt);
    if (chunk !== '') {
      if (stack.length === 0 && chunk.trim() !== '') fail(root ? 'junk after document element' : 'syntax error');
      decodeReferences(chunk, false);
    }
    if (lt < 0) break;
    pos = lt;
    if (text.startsWith('<!--', pos)) {
      pos += 4;
      skipPast('-->');
    } else if (text.startsWith('<![CDATA[', pos)) {
      if (stack.length === 0) fail('syntax error');
      pos += 9;
      skipPast(']]>');
    } else if (text.startsWith('<?', pos)) {
      pos += 2;
      skipPast('?>');
    } else if (text.startsWith('</', pos)) {
      pos += 2;
      const tag = name();
      skipSpace();
      if (text[pos] !== '>') fail('not well-formed (invalid token)');
      pos++;
      const open = stack.pop();
      if (!open || open.qname !== tag) fail('mismatched tag');
      const element = { tag: open!.tag, attrs: open!.attrs, children: open!.children };
      if (stack.length) stack[stack.length - 1].children.push(element);
      else root = element;
    } else {
      if (root && stack.length === 0) fail('junk after document element');
      pos++;
      const qname = name();
      const raw: [string, string][] = [];
      for (;;) {
        const before = pos;
        skipSpace();
        if (text.startsWith('/>', pos) || text[pos] === '>') break;
        if (pos >= text.length) fail('unclosed token');
        if (pos === before) fail('not well-formed (invalid token)');
        const attr = name();
        skipSpace();
        if (text[pos] !== '=') fail('not well-formed (invalid token)');
        pos++;
        skipSpace();
        const quote = text[pos];
        if (quote !== '"' && quote !== "'") fail('not well-formed (invalid token)');
        const close = text.indexOf(quote, pos + 1);
        if (close < 0) fail('unclosed token');
        const value = text.slice(pos + 1, close);
        if (value.includes('<')) fail('not well-formed (invalid token)');
        if (raw.some(([n]) => n === attr)) fail('duplicate attribute');
        raw.push([attr, decodeReferences(value, true)]);
        pos = close + 1;
      }
      const scope = new Map(stack.length ? stack[stack.length - 1].ns : [['xml', XML_NS]]);
      for (const [attr, value] of raw) {
        if (attr === 'xmlns') scope.set('', value);
        else if (attr.startsWith('xmlns:')) {
          if (value === '') fail('unbound prefix');
          scope.set(attr.slice(6), value);
        }
      }
      const attrs = new Map<string, string>();
      for (const [attr, value] of raw) {
        if (attr === 'xmlns' || attr.startsWith('xmlns:')) continue;
        const key = expandName(attr, scope, false);
        if (attrs.has(key)) fail('duplicate attribute');
        attrs.set(key, value);
      }
      const element = { tag: expandName(qname, scope, true), qname, ns: scope, attrs, children: [] as XmlElement[] };
      if (text[pos] === '/') {
        pos += 2;
        if (stack.length) stack[stack.length - 1].children.push(element);
        else root = element;
      } else {
        pos++;
        stack.push(element);
      }
    }
  }
  if (stack.length) fail('unclosed token');
  if (!root) fail('no element found');
  return root!;
}

const REFERENCE = /&(?:#(\d+)|#x([0-9a-fA-F]+)|([:A-Z_a-z][-.0-9:A-Z_a-z]*))?(;)?/g;

/** ElementTree's `{uri}local` for a prefixed name, or an element in a default namespace. */
function expandName(qname: string, scope: ReadonlyMap<string, string>, element: boolean): string {
  const colon = qname.indexOf(':');
  if (colon < 0) {
    const uri = element ? scope.get('') : undefined;
    return uri ? `{${uri}}${qname}` : qname;
  }
  const prefix = qname.slice(0, colon);
  const local = qname.slice(colon + 1);
  if (prefix === '' || local === '' || local.includes(':')) throw new XmlError('not well-formed (invalid token)');
  const uri = scope.get(prefix);
  if (uri === undefined) throw new XmlError('unbound prefix');
  return `{${uri}}${local}`;
}

/** Resolves references; in attribute values, literal tabs and newlines become spaces (expat's normalisation). */
function decodeReferences(raw: string, attribute: boolean): string {
  const normalised = attribute ? raw.replace(/[\t\n\r]/g, ' ') : raw;
  if (!normalised.includes('&')) return normalised;
  return normalised.replace(REFERENCE, (whole, dec?: string, hex?: string, entity?: string, semi?: string) => {
    if (!semi || (!dec && !hex && !entity)) throw new XmlError('not well-formed (invalid token)');
    if (entity !== undefined) {
      if (!Object.hasOwn(PREDEFINED, entity)) throw new XmlError(`undefined entity ${whole}`);
      return PREDEFINED[entity];
    }
    const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
    const char = code <= 0x10ffff ? String.fromCodePoint(code) : '';
    if (char === '' || FORBIDDEN.test(char)) throw new XmlError('reference to invalid character number');
    return char;
  });
}

/** ElementTree's `element.findall(".//tag")`: every descendant with that tag, in document order. */
export function findDescendants(element: XmlElement, tag: string): XmlElement[] {
  const out: XmlElement[] = [];
  const visit = (e: XmlElement) => {
    for (const child of e.children) {
      if (child.tag === tag) out.push(child);
      visit(child);
    }
  };
  visit(element);
  return out;
}
