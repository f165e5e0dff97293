// A strict reader of the XML the service writes (Atom feeds, sitemaps): elements, attributes, text and
// the five entities and character references. Anything not well-formed throws: a tag closed out of
// order, a bare `&` or `<`, text outside the root, more than one root, a control character XML forbids.
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The element's own text, entities resolved (children's text not included). */
  text: string;
}

const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d+)|#x([0-9a-fA-F]+));/g;
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function unescape(raw: string, where: string): string {
  if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(raw)) throw new Error(`bare & in ${where}: ${raw.slice(0, 80)}`);
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(raw)) throw new Error(`a control character in ${where}`);
  return raw.replace(ENTITY, (_, name: string | undefined, dec: string | undefined, hex: string | undefined) =>
    name ? NAMED[name] : String.fromCodePoint(dec ? Number(dec) : parseInt(hex!, 16)),
  );
}

export function parseXml(src: string): XmlElement {
  let i = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const declaration = /^<\?xml[^?]*\?>/.exec(src);
  if (declaration) i = declaration[0].length;
  while (i < src.length) {
    const lt = src.indexOf("<", i);
    const text = src.slice(i, lt < 0 ? src.length : lt);
    if (stack.length) stack[stack.length - 1].text += unescape(text, stack[stack.length - 1].name);
    else if (text.trim()) throw new Error(`text outside the root: ${text.slice(0, 40)}`);
    if (lt < 0) break;
    if (src.startsWith("<!--", lt)) {
      const end = src.indexOf("-->", lt);
      if (end < 0) throw new Error("unclosed comment");
      i = end + 3;
      continue;
    }
    const gt = src.indexOf(">", lt);
    if (gt < 0) throw new Error("unclosed tag");
    const tag = src.slice(lt + 1, gt);
    i = gt + 1;
    if (tag.startsWith("/")) {
      const open = stack.pop();
      if (!open || open.name !== tag.slice(1).trim()) throw new Error(`</${tag.slice(1)}> closes <${open?.name}>`);
      if (!stack.length) root = open;
      continue;
    }
    const m = /^([A-Za-z_][\w:.-]*)((?:\s+[A-Za-z_][\w:.-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)$/.exec(tag);
    if (!m) throw new Error(`malformed tag <${tag.slice(0, 60)}>`);
    const attrs: Record<string, string> = {};
    for (const a of m[2].matchAll(/([A-Za-z_][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
      if (a[1] in attrs) throw new Error(`attribute ${a[1]} twice`);
      attrs[a[1]] = unescape(a[2] ?? a[3], `attribute ${a[1]}`);
    }
    const el: XmlElement = { name: m[1], attrs, children: [], text: "" };
    if (stack.length) stack[stack.length - 1].children.push(el);
    else if (root) throw new Error("a second root element");
    if (m[3]) {
      if (!stack.length) root = el;
    } else stack.push(el);
  }
  if (stack.length) throw new Error(`<${stack[stack.length - 1].name}> never closed`);
  if (!root) throw new Error("no root element");
  return root;
}

/** The children named `name`. */
export const childrenNamed = (el: XmlElement, name: string): XmlElement[] => el.children.filter((c) => c.name === name);
/** The one child named `name`'s text, or undefined. */
export const childText = (el: XmlElement, name: string): string | undefined => childrenNamed(el, name)[0]?.text;
