// The Architect's requirement as SWE-CI's Appendix C asks for it (docs/sweci.md): one XML
// document (the harness's /app/requirement.xml) holding 1 to 5 code change requirements, each
// with a location, a description, a contract and an acceptance. Pure: text in, problems out.

/** The fields every requirement item must have (Appendix C, System Prompt for Architect Agent). */
export const REQUIREMENT_FIELDS = ['location', 'description', 'contract', 'acceptance'] as const;
/** At most this many items per iteration ("limited to 1 to 5 items"). */
export const MAX_REQUIREMENT_ITEMS = 5;

interface XmlElement {
  name: string;
  children: XmlElement[];
  text: string;
  line: number;
}

/**
 * Reads just enough XML to see elements and their text: tags, attributes (skipped), comments,
 * CDATA, processing instructions and a doctype. Throws a message with the line on a tag that is
 * not closed or closed out of order, which is all a shape check needs to report.
 */
function parseXml(text: string): XmlElement {
  const root: XmlElement = { name: '#document', children: [], text: '', line: 1 };
  const stack: XmlElement[] = [root];
  const lineAt = (i: number) => text.slice(0, i).split('\n').length;
  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const top = stack[stack.length - 1];
    if (lt < 0) {
      top.text += text.slice(i);
      break;
    }
    top.text += text.slice(i, lt);
    const skipTo = (end: string, what: string) => {
      const at = text.indexOf(end, lt);
      if (at < 0) throw new Error(`line ${lineAt(lt)}: ${what} is not closed`);
      return at + end.length;
    };
    if (text.startsWith('<!--', lt)) i = skipTo('-->', 'a comment');
    else if (text.startsWith('<![CDATA[', lt)) {
      const end = skipTo(']]>', 'a CDATA section');
      top.text += text.slice(lt + 9, end - 3);
      i = end;
    } else if (text.startsWith('<?', lt)) i = skipTo('?>', 'a processing instruction');
    else if (text.startsWith('<!', lt)) i = skipTo('>', 'a declaration');
    else {
      const end = skipTo('>', 'a tag');
      const body = text.slice(lt + 1, end - 1).trim();
      const line = lineAt(lt);
      if (body.startsWith('/')) {
        const name = body.slice(1).trim();
        if (stack.length === 1 || top.name !== name)
          throw new Error(
            `line ${line}: </${name}> closes ${stack.length === 1 ? 'nothing' : `<${top.name}> (line ${top.line})`}`,
          );
        stack.pop();
      } else {
        const name = /^[^\s/>]+/.exec(body)?.[0];
        if (!name) throw new Error(`line ${line}: a tag without a name`);
        const el: XmlElement = { name, children: [], text: '', line };
        top.children.push(el);
        if (!body.endsWith('/')) stack.push(el);
      }
      i = end;
    }
  }
  if (stack.length > 1) {
    const open = stack[stack.length - 1];
    throw new Error(`line ${open.line}: <${open.name}> is never closed`);
  }
  return root;
}

function allText(el: XmlElement): string {
  return el.text + el.children.map(allText).join('');
}

/** Elements that hold at least one of the item fields as a child: the requirement items. */
function itemsOf(el: XmlElement): XmlElement[] {
  const isItem = el.children.some((c) => (REQUIREMENT_FIELDS as readonly string[]).includes(c.name));
  return isItem ? [el] : el.children.flatMap(itemsOf);
}

/**
 * What keeps `text` from having Appendix C's shape, one entry per problem (empty: it has it). The
 * document is XML; its items are the elements holding the fields; there are 1 to 5 of them; each
 * has every field once, with text in it.
 */
export function requirementShapeProblems(text: string): string[] {
  let doc: XmlElement;
  try {
    doc = parseXml(text);
  } catch (e) {
    return [`it is not well-formed XML (${(e as Error).message})`];
  }
  if (doc.children.length === 0) return ['it is not an XML document (no element in it)'];
  if (doc.children.length > 1) return [`it has ${doc.children.length} top-level elements; an XML document has one`];
  const items = itemsOf(doc.children[0]);
  const fields = REQUIREMENT_FIELDS.map((f) => `<${f}>`).join(', ');
  if (items.length === 0) return [`it has no requirement item (an element with ${fields})`];
  const problems: string[] = [];
  if (items.length > MAX_REQUIREMENT_ITEMS)
    problems.push(`it has ${items.length} requirement items; at most ${MAX_REQUIREMENT_ITEMS}`);
  items.forEach((item, k) => {
    const where = `item ${k + 1} (<${item.name}>, line ${item.line})`;
    for (const field of REQUIREMENT_FIELDS) {
      const found = item.children.filter((c) => c.name === field);
      if (found.length === 0) problems.push(`${where} has no <${field}>`);
      else if (found.length > 1) problems.push(`${where} has ${found.length} <${field}> elements; one`);
      else if (!allText(found[0]).trim()) problems.push(`${where} has an empty <${field}>`);
    }
  });
  return problems;
}
