// Problem statements are GitHub issue text. Rendered with markdown-it, raw HTML off (it is shown
// as text), so nothing in an issue can inject markup or scripts; links open outside VS Code.
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });

// Remote images would break the no-remote-content CSP anyway: show their alt text and URL instead.
md.renderer.rules.image = (tokens, index) => {
  const token = tokens[index];
  const src = token.attrGet('src') ?? '';
  const alt = md.utils.escapeHtml(token.content || 'image');
  return `<span class="image-placeholder" title="${md.utils.escapeHtml(String(src))}">[${alt}]</span>`;
};

export function renderMarkdown(text: string): string {
  return md.render(text);
}
