// Inline geometry (a row's top, the list's height, a progress bar's width) set through the CSSOM.
// The webviews' Content-Security-Policy allows styles only from the extension's stylesheets and
// the page's nonce: a `style="…"` attribute, which lit's styleMap writes the first time it renders
// an element, is refused, so rows the virtual list creates after a filter all land at top 0.
// Setting `element.style` properties from script is not an inline style attribute and the CSP
// allows it, so this directive always goes through `style.setProperty`, never the attribute.
import { noChange } from 'lit';
import { Directive, directive, PartType, type ElementPart, type PartInfo } from 'lit/directive.js';

type Props = Readonly<Record<string, string>>;

class CssPropsDirective extends Directive {
  private previous: Props = {};

  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.ELEMENT) throw new Error('cssProps belongs on an element: <div ${cssProps(…)}>');
  }

  render(_props: Props): unknown {
    return noChange;
  }

  override update(part: ElementPart, [props]: [Props]): unknown {
    const style = (part.element as HTMLElement).style;
    for (const name of Object.keys(this.previous)) if (!(name in props)) style.removeProperty(name);
    for (const [name, value] of Object.entries(props))
      if (this.previous[name] !== value || style.getPropertyValue(name) !== value) style.setProperty(name, value);
    this.previous = props;
    return noChange;
  }
}

/** `<div ${cssProps({ top: '24px' })}>`: CSS properties set through the CSSOM, which the CSP allows. */
export const cssProps = directive(CssPropsDirective);
