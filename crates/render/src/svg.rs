//! A minimal SVG writer: elements appended to a string with escaped text and attributes and
//! numbers in one fixed format (4 decimals, no `-0`), so the same picture is the same bytes.

use std::fmt::Write as _;

/// A number as SVG text: 4 decimals (0.1 um when the unit is the millimetre), `-0.0000`
/// written `0.0000`, non-finite values as `0` (never produced by the renderers).
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return "0".to_string();
    }
    let s = format!("{x:.4}");
    if s == "-0.0000" {
        "0.0000".to_string()
    } else {
        s
    }
}

/// `text` with the five XML special characters escaped (safe in text and in attributes).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters other than tab and newlines are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// An SVG document being written. Attribute lists are `(name, value)` pairs; values are
/// escaped here.
pub struct Svg {
    out: String,
    depth: usize,
}

impl Svg {
    /// A document showing the user-space rectangle `view` = `(x, y, width, height)` at
    /// `px_width` pixels wide, with a stylesheet.
    pub fn new(view: (f64, f64, f64, f64), px_width: f64, style: &str) -> Svg {
        let (x, y, w, h) = view;
        let px_height = px_width * h / w;
        let mut out = String::new();
        out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{}\" \
             height=\"{}\" viewBox=\"{} {} {} {}\">",
            num(px_width),
            num(px_height),
            num(x),
            num(y),
            num(w),
            num(h)
        );
        let _ = writeln!(out, "<style>{}</style>", escape(style));
        Svg { out, depth: 1 }
    }

    fn indent(&mut self) {
        for _ in 0..self.depth {
            self.out.push(' ');
        }
    }

    fn attrs(&mut self, attrs: &[(&str, String)]) {
        for (k, v) in attrs {
            let _ = write!(self.out, " {k}=\"{}\"", escape(v));
        }
    }

    /// An empty element `<name attrs/>`.
    pub fn empty(&mut self, name: &str, attrs: &[(&str, String)]) {
        self.indent();
        let _ = write!(self.out, "<{name}");
        self.attrs(attrs);
        self.out.push_str("/>\n");
    }

    /// An element holding only `text` (escaped): `<name attrs>text</name>`.
    pub fn text_element(&mut self, name: &str, attrs: &[(&str, String)], text: &str) {
        self.indent();
        let _ = write!(self.out, "<{name}");
        self.attrs(attrs);
        let _ = writeln!(self.out, ">{}</{name}>", escape(text));
    }

    /// Opens `<name attrs>`; close it with [`Svg::close`].
    pub fn open(&mut self, name: &str, attrs: &[(&str, String)]) {
        self.indent();
        let _ = write!(self.out, "<{name}");
        self.attrs(attrs);
        self.out.push_str(">\n");
        self.depth += 1;
    }

    /// Closes the element opened last, `</name>`.
    pub fn close(&mut self, name: &str) {
        self.depth -= 1;
        self.indent();
        let _ = writeln!(self.out, "</{name}>");
    }

    /// A group `<g class=...>`; close it with `close("g")`.
    pub fn group(&mut self, class: &str) {
        self.open("g", &[("class", class.to_string())]);
    }

    /// A circle, with a tooltip `title` if not empty.
    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, class: &str, title: &str) {
        let attrs = [
            ("class", class.to_string()),
            ("cx", num(cx)),
            ("cy", num(cy)),
            ("r", num(r)),
        ];
        if title.is_empty() {
            self.empty("circle", &attrs);
        } else {
            self.open("circle", &attrs);
            self.text_element("title", &[], title);
            self.close("circle");
        }
    }

    /// A line segment.
    pub fn line(&mut self, a: (f64, f64), b: (f64, f64), class: &str) {
        self.empty(
            "line",
            &[
                ("class", class.to_string()),
                ("x1", num(a.0)),
                ("y1", num(a.1)),
                ("x2", num(b.0)),
                ("y2", num(b.1)),
            ],
        );
    }

    /// A rectangle, with a tooltip `title` if not empty.
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, class: &str, title: &str) {
        let attrs = [
            ("class", class.to_string()),
            ("x", num(x)),
            ("y", num(y)),
            ("width", num(w)),
            ("height", num(h)),
        ];
        if title.is_empty() {
            self.empty("rect", &attrs);
        } else {
            self.open("rect", &attrs);
            self.text_element("title", &[], title);
            self.close("rect");
        }
    }

    /// A rectangle filled with `fill` (a colour the renderer computed).
    pub fn rect_filled(&mut self, x: f64, y: f64, w: f64, h: f64, class: &str, fill: &str) {
        self.empty(
            "rect",
            &[
                ("class", class.to_string()),
                ("x", num(x)),
                ("y", num(y)),
                ("width", num(w)),
                ("height", num(h)),
                ("fill", fill.to_string()),
            ],
        );
    }

    /// An open polyline through `points`.
    pub fn polyline(&mut self, points: &[(f64, f64)], class: &str, title: &str) {
        let pts: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{},{}", num(x), num(y)))
            .collect();
        let attrs = [("class", class.to_string()), ("points", pts.join(" "))];
        if title.is_empty() {
            self.empty("polyline", &attrs);
        } else {
            self.open("polyline", &attrs);
            self.text_element("title", &[], title);
            self.close("polyline");
        }
    }

    /// Text at `(x, y)`; `anchor` is `start`, `middle` or `end`.
    pub fn text(&mut self, x: f64, y: f64, class: &str, anchor: &str, text: &str) {
        self.text_element(
            "text",
            &[
                ("class", class.to_string()),
                ("x", num(x)),
                ("y", num(y)),
                ("text-anchor", anchor.to_string()),
            ],
            text,
        );
    }

    /// Raw markup, already valid and escaped (pattern definitions).
    pub fn raw(&mut self, markup: &str) {
        self.indent();
        self.out.push_str(markup);
        self.out.push('\n');
    }

    /// The finished document.
    pub fn finish(mut self) -> String {
        while self.depth > 1 {
            self.close("g");
        }
        self.out.push_str("</svg>\n");
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_one_form() {
        assert_eq!(num(1.0), "1.0000");
        assert_eq!(num(-0.00001), "0.0000");
        assert_eq!(num(-1.23456), "-1.2346");
        assert_eq!(num(f64::NAN), "0");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;"
        );
        assert_eq!(escape("x\u{1}y"), "x y");
    }
}
