//! The small XML reader StraDoS2 files need: elements, attributes, entities.

/// One XML element: its name, parent, attributes and direct text.
#[derive(Debug)]
pub(super) struct Element {
    pub(super) name: String,
    pub(super) parent: Option<String>,
    pub(super) attrs: Vec<(String, String)>,
    pub(super) text: String,
}

impl Element {
    pub(super) fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

pub(super) fn decode(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let end = after
            .find(';')
            .ok_or_else(|| format!("unterminated entity in {s:?}"))?;
        let ent = &after[..end];
        let c = match ent {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            _ => {
                let code = if let Some(h) = ent.strip_prefix("#x") {
                    u32::from_str_radix(h, 16).ok()
                } else if let Some(d) = ent.strip_prefix('#') {
                    d.parse().ok()
                } else {
                    None
                };
                code.and_then(char::from_u32)
                    .ok_or_else(|| format!("unknown entity &{ent};"))?
            }
        };
        out.push(c);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// A small XML reader: elements in document order, with their parent and text. Enough for
/// StraDoS2 files (no namespaces; comments, processing instructions, doctype and CDATA are
/// accepted).
// Over 100 lines: one pass of a byte tokenizer whose cases (tags, comments, declarations,
// CDATA, text) share the cursor, the line count and the element stack.
pub(super) fn parse_xml(xml: &str) -> Result<Vec<Element>, (usize, String)> {
    let line_at = |pos: usize| xml[..pos].matches('\n').count() + 1;
    let mut out: Vec<Element> = Vec::new();
    let mut stack: Vec<(String, usize)> = Vec::new();
    let mut pos = 0;
    let b = xml.as_bytes();
    while pos < b.len() {
        if b[pos] != b'<' {
            let end = xml[pos..].find('<').map_or(b.len(), |i| pos + i);
            let text = &xml[pos..end];
            match stack.last() {
                Some(&(_, idx)) => {
                    let t = decode(text).map_err(|m| (line_at(pos), m))?;
                    out[idx].text.push_str(&t);
                }
                None if !text.trim().is_empty() => {
                    return Err((line_at(pos), "text outside the root element".into()));
                }
                None => {}
            }
            pos = end;
            continue;
        }
        let rest = &xml[pos..];
        let skip = |open: &str, close: &str| -> Result<Option<usize>, (usize, String)> {
            if rest.starts_with(open) {
                rest.find(close)
                    .map(|i| Some(pos + i + close.len()))
                    .ok_or_else(|| (line_at(pos), format!("{open} is never closed by {close}")))
            } else {
                Ok(None)
            }
        };
        if let Some(p) = skip("<?", "?>")? {
            pos = p;
            continue;
        }
        if let Some(p) = skip("<!--", "-->")? {
            pos = p;
            continue;
        }
        if rest.starts_with("<![CDATA[") {
            let end = rest
                .find("]]>")
                .ok_or_else(|| (line_at(pos), "CDATA section is never closed".to_string()))?;
            if let Some(&(_, idx)) = stack.last() {
                out[idx].text.push_str(&rest[9..end]);
            }
            pos += end + 3;
            continue;
        }
        if let Some(p) = skip("<!", ">")? {
            pos = p;
            continue;
        }
        let end = rest
            .find('>')
            .ok_or_else(|| (line_at(pos), "a tag is never closed with >".to_string()))?;
        let inner = &rest[1..end];
        pos += end + 1;
        if let Some(name) = inner.strip_prefix('/') {
            let name = name.trim();
            match stack.pop() {
                Some((open, _)) if open == name => {}
                Some((open, _)) => {
                    return Err((
                        line_at(pos),
                        format!("</{name}> closes <{open}>; the elements are not nested properly"),
                    ));
                }
                None => return Err((line_at(pos), format!("</{name}> closes nothing"))),
            }
            continue;
        }
        let (inner, empty) = match inner.strip_suffix('/') {
            Some(i) => (i, true),
            None => (inner, false),
        };
        let name_end = inner
            .find(|c: char| c.is_whitespace())
            .unwrap_or(inner.len());
        let name = inner[..name_end].to_string();
        if name.is_empty() {
            return Err((line_at(pos), "an element without a name".into()));
        }
        let mut attrs = Vec::new();
        let mut a = inner[name_end..].trim_start();
        while !a.is_empty() {
            let eq = a
                .find('=')
                .ok_or_else(|| (line_at(pos), format!("<{name}>: attribute without a value")))?;
            let key = a[..eq].trim().to_string();
            let v = a[eq + 1..].trim_start();
            let q = v
                .chars()
                .next()
                .filter(|c| *c == '"' || *c == '\'')
                .ok_or_else(|| {
                    (
                        line_at(pos),
                        format!("<{name}>: the value of {key} must be quoted"),
                    )
                })?;
            let close = v[1..].find(q).ok_or_else(|| {
                (
                    line_at(pos),
                    format!("<{name}>: the value of {key} is never closed"),
                )
            })?;
            let value = decode(&v[1..1 + close]).map_err(|m| (line_at(pos), m))?;
            attrs.push((key, value));
            a = v[close + 2..].trim_start();
        }
        if stack.is_empty() && out.iter().any(|e| e.parent.is_none()) {
            return Err((line_at(pos), format!("<{name}> is a second root element")));
        }
        out.push(Element {
            name: name.clone(),
            parent: stack.last().map(|(n, _)| n.clone()),
            attrs,
            text: String::new(),
        });
        if !empty {
            stack.push((name, out.len() - 1));
        }
    }
    if let Some((open, _)) = stack.pop() {
        return Err((line_at(b.len()), format!("<{open}> is never closed")));
    }
    Ok(out)
}
