import { ParserCrash } from '../parserCrash';
import { FAILED, PASSED, type StatusMap } from '../statuses';
import { findDescendants, parseXml, XmlError, type XmlElement } from '../xmlTree';

const START = '<doctest';
const END = '</doctest>';

/**
 * c.py parse_log_doctest (nlohmann/json, run with `-s -r=xml`): doctest's XML report, one entry
 * per SubCase as `TestCase > SubCase`, PASSED iff every Expression under it succeeded. Test cases
 * without subcases record nothing; a missing name reads "None", as Python formats it. When the
 * closing tag is missing the harness slices the log at 9 (find's -1 plus the tag's length) and
 * ElementTree raises, as it does on any malformed report.
 */
export function parseDoctest(log: string): StatusMap {
  const map: StatusMap = new Map();
  const start = log.indexOf(START);
  if (start < 0) return map;
  const endAt = log.indexOf(END, start);
  const end = endAt + END.length;
  let root: XmlElement;
  const xml = log.slice(start, Math.max(start, end));
  try {
    root = parseXml(xml);
  } catch (e) {
    if (e instanceof XmlError) throw new ParserCrash('doctest', xml, `ParseError: ${e.message}`);
    throw e;
  }
  for (const testCase of findDescendants(root, 'TestCase')) {
    const caseName = testCase.attrs.get('name') ?? 'None';
    for (const subCase of findDescendants(testCase, 'SubCase')) {
      const name = `${caseName} > ${subCase.attrs.get('name') ?? 'None'}`;
      const passed = findDescendants(subCase, 'Expression').every((e) => e.attrs.get('success') === 'true');
      map.set(name, passed ? PASSED : FAILED);
    }
  }
  return map;
}
