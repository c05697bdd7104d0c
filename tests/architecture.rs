//! docs/ARCHITECTURE.md's code map is the truth: its dependency table is parsed and
//! every `crate::` edge between the top-level modules of `src/` must be one the table
//! allows; neither the table nor the code has a cycle, nor has any module between its
//! own submodules (`scene::chart` → `scene::lod` → `scene::chart` fails); and the core (every module but
//! the shells) never touches the DOM, the file system or stdout.
//!
//! Edges are read from the code as text: `crate::module` paths and `use crate::{…}`
//! groups (names the crate root re-exports, such as `crate::Error`, count as their
//! module's), outside comments and `#[cfg(test)]` modules (a unit test may check its
//! result with anything).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The modules that talk to the outside world (ARCHITECTURE's "thin shells") and the
/// module that may read the browser's clock.
const SHELLS: &[&str] = &["cli", "web", "web_onnx", "python", "tools", "export_folder"];
const CLOCK: &str = "timer";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `| \`module\` | holds | depends on |` rows of the code map: each module and the
/// modules its last cell names in backquotes (`—` for none).
fn table() -> Graph {
    let text = std::fs::read_to_string(root().join("docs/ARCHITECTURE.md")).unwrap();
    let start = text
        .find("## Code map")
        .expect("ARCHITECTURE.md has a code map");
    let mut graph = Graph::new();
    for line in text[start..].lines().skip(1) {
        if line.starts_with("## ") {
            break;
        }
        if !line.starts_with('|') {
            continue;
        }
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').collect();
        let Some(module) = cells.first().and_then(|c| quoted(c).into_iter().next()) else {
            continue;
        };
        let deps = quoted(cells.last().unwrap()).into_iter().collect();
        graph.insert(module, deps);
    }
    assert!(graph.len() > 5, "the code map's table was not found");
    graph
}

/// The words between backquotes in `cell`.
fn quoted(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`None`: the crate root and the
/// binaries, which use the crate as a library).
fn module_of(path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root().join("src")).unwrap();
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib" && name != "bin").then(|| name.to_owned())
}

/// The code of a file without comments and without `#[cfg(test)]` modules.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") {
            continue;
        }
        if trimmed.starts_with("#[cfg(test)]") {
            // Skip the item that follows: up to its closing brace.
            let mut depth = 0i64;
            let mut opened = false;
            for next in lines.by_ref() {
                depth += next.matches('{').count() as i64 - next.matches('}').count() as i64;
                opened |= next.contains('{');
                if (opened && depth <= 0) || (!opened && next.trim_end().ends_with(';')) {
                    break;
                }
            }
            continue;
        }
        let line = line.split(" //").next().unwrap_or(line);
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The first path segments after `crate::` in `code`, groups (`crate::{a, b::c}`)
/// included.
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `memplan_crate::` or the like
        }
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let end = group
                .find(|c| {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => return true,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    false
                })
                .unwrap_or(group.len());
            let mut depth = 0;
            let mut item = String::new();
            for c in group[..end].chars().chain([',']) {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.insert(first_segment(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                if depth == 0 {
                    item.push(c);
                }
            }
        } else {
            found.insert(first_segment(rest));
        }
    }
    found.remove("");
    found
}

fn first_segment(path: &str) -> String {
    path.trim()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// What the crate root re-exports: name → module (`Error` → `error`).
fn reexports() -> BTreeMap<String, String> {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).unwrap();
    let mut map = BTreeMap::new();
    for line in lib.lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else {
            continue;
        };
        let (module, names) = rest.split_once("::").unwrap();
        for name in names.trim_matches(|c| "{};".contains(c)).split(',') {
            map.insert(name.trim().to_owned(), module.to_owned());
        }
    }
    map
}

/// The crate's edges: module → modules it names, and each module's code.
fn code_graph() -> (Graph, BTreeMap<String, String>) {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let reexports = reexports();
    let (mut graph, mut texts) = (Graph::new(), BTreeMap::<String, String>::new());
    for file in files {
        let Some(module) = module_of(&file) else {
            continue;
        };
        let code = code(&std::fs::read_to_string(&file).unwrap());
        let deps = graph.entry(module.clone()).or_default();
        for name in crate_paths(&code) {
            let target = reexports.get(&name).cloned().unwrap_or(name);
            if target != module {
                deps.insert(target);
            }
        }
        texts.entry(module).or_default().push_str(&code);
    }
    (graph, texts)
}

/// A cycle of `graph`, if any, as the modules along it.
fn cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &Graph,
        done: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, graph, done, path) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|n| visit(n, graph, &mut done, &mut Vec::new()))
}

#[test]
fn every_edge_between_modules_is_one_the_code_map_allows() {
    let (allowed, (code, _)) = (table(), code_graph());
    let mut wrong = Vec::new();
    for (module, deps) in &code {
        let Some(ok) = allowed.get(module) else {
            wrong.push(format!("`{module}` is not in the code map"));
            continue;
        };
        for dep in deps.difference(ok) {
            wrong.push(format!(
                "`{module}` uses `{dep}`, which its row does not list"
            ));
        }
    }
    for module in allowed.keys().filter(|m| !code.contains_key(*m)) {
        wrong.push(format!(
            "the code map names `{module}`, which src/ does not have"
        ));
    }
    assert!(
        wrong.is_empty(),
        "docs/ARCHITECTURE.md:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn neither_the_code_map_nor_the_code_has_a_cycle() {
    let (allowed, (code, _)) = (table(), code_graph());
    assert_eq!(cycle(&allowed), None, "a cycle in ARCHITECTURE.md's table");
    assert_eq!(cycle(&code), None, "a cycle between modules of src/");
}

#[test]
fn the_core_touches_no_dom_file_system_or_stdout() {
    let (_, texts) = code_graph();
    let outside = [
        "wasm_bindgen",
        "web_sys",
        "js_sys",
        "std::fs",
        "println!",
        "print!(",
        "eprintln!",
        "std::io::stdout",
    ];
    let mut wrong = Vec::new();
    for (module, code) in texts.iter().filter(|(m, _)| !SHELLS.contains(&m.as_str())) {
        for word in outside {
            let clock = module == CLOCK && word == "js_sys";
            if code.contains(word) && !clock {
                wrong.push(format!("`{module}` uses {word}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "the core must stay pure:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_reader_of_edges_sees_groups_and_skips_comments_and_tests() {
    let text = "use crate::{a::{B, C}, d, Error};\n// crate::e\nfn f() { crate::g::h() }\n\
                #[cfg(test)]\nmod tests {\n    use crate::i;\n}\n";
    let found = crate_paths(&code(text));
    let want: BTreeSet<String> = ["a", "d", "Error", "g"].map(String::from).into();
    assert_eq!(found, want);
    let mut g = Graph::new();
    g.insert("x".into(), ["y".to_owned()].into());
    g.insert("y".into(), ["x".to_owned()].into());
    assert_eq!(cycle(&g).map(|c| c.len()), Some(3));
}

/// A file's module path below the crate (`src/scene/render.rs` → `scene::render`,
/// `src/scene/mod.rs` → `scene`, `src/lib.rs` → the root); `None` for the binaries.
fn module_path(path: &Path) -> Option<Vec<String>> {
    let rel = path.strip_prefix(root().join("src")).unwrap();
    let mut segs: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_str().unwrap().to_owned())
        .collect();
    if segs.first().is_some_and(|s| s == "bin") {
        return None;
    }
    let last = segs.pop()?;
    let stem = last.strip_suffix(".rs").unwrap_or(&last);
    if stem != "mod" && stem != "lib" {
        segs.push(stem.to_owned());
    }
    Some(segs)
}

/// The paths a `use` tree names, groups expanded: `a::{b, c::{d}}` → `a::b`, `a::c::d`.
fn use_tree(text: &str) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    let mut rest = text.trim_start();
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let (mut depth, mut item, mut out) = (0, String::new(), Vec::new());
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.extend(use_tree(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            out.extend(use_tree(&item));
            return out
                .into_iter()
                .map(|tail| prefix.iter().cloned().chain(tail).collect())
                .collect();
        }
        let name = first_segment(rest);
        if name.is_empty() {
            return vec![prefix];
        }
        rest = &rest.trim_start()[name.len()..];
        prefix.push(name);
        match rest.strip_prefix("::") {
            Some(more) => rest = more,
            None => return vec![prefix],
        }
    }
}

/// The absolute module paths the code of the file at module path `at` names through
/// `crate::`, `super::` (as often as written) and `self::`.
fn named_paths(code: &str, at: &[String]) -> Vec<Vec<String>> {
    // `super` of a file's module is its parent (a `mod.rs` is its folder's module).
    let here = at.to_vec();
    let mut out = Vec::new();
    for anchor in ["crate::", "super::", "self::"] {
        for (pos, _) in code.match_indices(anchor) {
            let before = code[..pos].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue; // `memplan_crate::`, or a `super::` after another
            }
            let mut rest = &code[pos + anchor.len()..];
            let mut base = match anchor {
                "crate::" => Vec::new(),
                "self::" => here.clone(),
                _ => here[..here.len().saturating_sub(1)].to_vec(),
            };
            while let Some(more) = rest.strip_prefix("super::") {
                base.pop();
                rest = more;
            }
            for tail in use_tree(rest) {
                out.push(base.iter().cloned().chain(tail).collect());
            }
        }
    }
    out
}

/// Per module with submodules (`scene`, `manager`, `formats::onnx`…): the edges
/// between its submodules, from `crate::`/`super::`/`self::` paths. A name the
/// parent re-exports (`pub use chart::Chart`) counts as its submodule's.
fn inner_graphs() -> BTreeMap<Vec<String>, Graph> {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let modules: Vec<(PathBuf, Vec<String>)> = files
        .iter()
        .filter_map(|f| Some((f.clone(), module_path(f)?)))
        .collect();
    let all: BTreeSet<Vec<String>> = modules.iter().map(|m| m.1.clone()).collect();
    // Parent module → (child names, re-exported name → child).
    let mut children: BTreeMap<Vec<String>, BTreeSet<String>> = BTreeMap::new();
    for m in all.iter().filter(|m| !m.is_empty()) {
        let (last, parent) = m.split_last().unwrap();
        children
            .entry(parent.to_vec())
            .or_default()
            .insert(last.clone());
    }
    let mut reexported: BTreeMap<Vec<String>, BTreeMap<String, String>> = BTreeMap::new();
    for (file, m) in &modules {
        let text = std::fs::read_to_string(file).unwrap();
        for line in text.lines() {
            let Some(rest) = line.trim().strip_prefix("pub use ") else {
                continue;
            };
            for path in use_tree(rest.trim_end_matches(';')) {
                let local = path
                    .first()
                    .filter(|c| children.get(m).is_some_and(|k| k.contains(*c)));
                if let (Some(child), Some(name)) = (local, path.last()) {
                    reexported
                        .entry(m.clone())
                        .or_default()
                        .insert(name.clone(), child.clone());
                }
            }
        }
    }
    let mut graphs: BTreeMap<Vec<String>, Graph> = BTreeMap::new();
    for (file, m) in &modules {
        let code = code(&std::fs::read_to_string(file).unwrap());
        for target in named_paths(&code, m) {
            for (parent, kids) in &children {
                let depth = parent.len();
                if parent.is_empty() || !m.starts_with(parent) || m.len() <= depth {
                    continue;
                }
                if !target.starts_with(parent) || target.len() <= depth {
                    continue;
                }
                let (from, name) = (&m[depth], &target[depth]);
                let to = if kids.contains(name) {
                    name.clone()
                } else if let Some(child) = reexported.get(parent).and_then(|r| r.get(name)) {
                    child.clone()
                } else {
                    continue; // an item of the parent module itself
                };
                let graph = graphs.entry(parent.clone()).or_default();
                graph.entry(from.clone()).or_default();
                if &to != from {
                    graph.entry(from.clone()).or_default().insert(to);
                }
            }
        }
    }
    graphs
}

#[test]
fn no_module_has_a_cycle_between_its_submodules() {
    let graphs = inner_graphs();
    assert!(
        graphs
            .get(&vec!["scene".to_owned()])
            .is_some_and(|g| g.len() > 10),
        "the submodules of scene were not found"
    );
    let cycles: Vec<String> = graphs
        .iter()
        .filter_map(|(parent, g)| Some(format!("{}: {}", parent.join("::"), cycle(g)?.join(" → "))))
        .collect();
    assert!(
        cycles.is_empty(),
        "cycles between submodules:\n{}",
        cycles.join("\n")
    );
}

#[test]
fn the_reader_of_inner_edges_resolves_super_self_and_groups() {
    let at = ["scene".to_owned(), "render".to_owned()];
    let code = "use super::{chart::Chart, paint::{Align, Rect}};\nuse super::super::model::Plan;\n\
                fn f() { self::g(); crate::scene::view::View::fit() }\n";
    let mut found: Vec<String> = named_paths(code, &at)
        .into_iter()
        .map(|p| p.join("::"))
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            "model::Plan",
            "scene::chart::Chart",
            "scene::paint::Align",
            "scene::paint::Rect",
            "scene::render::g",
            "scene::view::View::fit",
        ]
    );
}

/// The rows of the table under `heading` (its cells), header and rule left out.
fn doc_table(heading: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(root().join("docs/ARCHITECTURE.md")).unwrap();
    let start = text.find(heading).unwrap_or_else(|| panic!("{heading}"));
    let rows: Vec<Vec<String>> = text[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with('|'))
        .map(|l| {
            let cells = l.trim().trim_matches('|').split('|');
            cells.map(|c| c.trim().to_owned()).collect()
        })
        .collect();
    rows.into_iter().skip(2).collect()
}

#[test]
fn each_row_of_the_planning_precedence_is_a_test() {
    let source = std::fs::read_to_string(root().join("src/planning.rs")).unwrap();
    let rows = doc_table("## Planning precedence");
    assert!(rows.len() >= 8, "{rows:?}");
    for row in rows {
        let test = row.last().unwrap().trim_matches('`');
        assert!(
            source.contains(&format!("#[test]\n    fn {test}()")),
            "the precedence row {row:?} names no test of src/planning.rs"
        );
    }
    // And the rule for a list without offsets is written once.
    assert_eq!(source.matches("strategies::place_default(list)").count(), 1);
}

/// The strategy names of `Strategy::name` (src/strategies/mod.rs).
fn strategy_names() -> Vec<String> {
    let source = std::fs::read_to_string(root().join("src/strategies/mod.rs")).unwrap();
    let body = source.split("pub fn name(self)").nth(1).unwrap();
    let body = body.split("\n    }").next().unwrap();
    body.split("=> \"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .map(String::from)
        .collect()
}

#[test]
fn no_page_or_python_file_retypes_the_strategy_names() {
    let names = strategy_names();
    assert!(names.len() >= 6, "{names:?}");
    let mut files = Vec::new();
    for (dir, exts) in [
        ("www", &["js", "html"][..]),
        ("python/memplan", &["py", "pyi"][..]),
    ] {
        let mut stack = vec![root().join(dir)];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                let skip = ["pkg", "pkg-lite", "pkg-onnx", "node_modules", "demo"];
                if p.is_dir() && !skip.iter().any(|s| p.ends_with(s)) {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| exts.iter().any(|e| x == *e)) {
                    files.push(p);
                }
            }
        }
    }
    assert!(files.len() > 5);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let retyped: Vec<&String> = names
            .iter()
            .filter(|n| {
                ["'", "\""]
                    .iter()
                    .any(|q| text.contains(&format!("{q}{n}{q}")))
            })
            .collect();
        assert!(
            retyped.len() < 2,
            "{} retypes the strategy names {retyped:?}: take them from Rust \
             (strategy_names(), memplan.STRATEGIES)",
            file.display()
        );
    }
}

/// The embedded views' search budget is written once, in Rust
/// (`planning::EMBED_BUDGET_MS`): no Python file of the package assigns a number of
/// milliseconds of its own to a budget (the notebook's `_BUDGET_MS = 300` was a copy of
/// the widget's; it takes `_native.EMBED_BUDGET_MS`). The page's copy is in src/web and
/// www/, whose owner switches them.
#[test]
fn no_python_file_retypes_the_embed_budget() {
    let dir = root().join("python/memplan");
    let mut checked = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let p = e.path();
        if !p.extension().is_some_and(|x| x == "py") {
            continue;
        }
        checked += 1;
        let text = std::fs::read_to_string(&p).unwrap();
        for line in text.lines() {
            let Some((name, value)) = line.split_once('=') else {
                continue;
            };
            let name = name.trim().to_ascii_uppercase();
            let value = value.trim();
            let number = !value.is_empty() && value.chars().all(|c| c.is_ascii_digit() || c == '_');
            assert!(
                !(name.contains("BUDGET") && number),
                "{}: `{}` types a budget: take `_native.EMBED_BUDGET_MS`",
                p.display(),
                line.trim()
            );
        }
    }
    assert!(checked > 3);
}

/// A function's length in lines, from its `fn` line to its closing brace: braces
/// counted outside string and char literals and comments (a line's text after `//`).
fn function_lengths(text: &str) -> Vec<(usize, String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let braces = |line: &str| -> (i64, bool) {
        let mut depth = 0i64;
        let (mut in_str, mut escaped, mut prev) = (false, false, ' ');
        let mut opened = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if in_str {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == '"' {
                    in_str = false;
                }
            } else if c == '/' && chars.peek() == Some(&'/') {
                break;
            } else if c == '"' {
                in_str = true;
            } else if c == '\'' && (prev == ' ' || prev == '(' || prev == ',' || prev == '=') {
                // A char literal ('{', '\'', '\\'): skip to its closing quote.
                let lit: String = chars.clone().take(4).collect();
                if let Some(end) = lit.find('\'').filter(|&e| e > 0) {
                    for _ in 0..=end {
                        chars.next();
                    }
                }
            } else if c == '{' {
                depth += 1;
                opened = true;
            } else if c == '}' {
                depth -= 1;
            }
            prev = c;
        }
        (depth, opened)
    };
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        let t = t
            .strip_prefix("pub(crate) ")
            .or_else(|| t.strip_prefix("pub(super) "));
        let t = t
            .or_else(|| line.trim_start().strip_prefix("pub "))
            .unwrap_or(line.trim_start());
        let t = t.strip_prefix("const ").unwrap_or(t);
        let Some(name) = t.strip_prefix("fn ") else {
            continue;
        };
        let name: String = name
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let (mut depth, mut opened) = (0i64, false);
        for (j, l) in lines.iter().enumerate().skip(i) {
            let (d, o) = braces(l);
            depth += d;
            opened |= o;
            if opened && depth <= 0 {
                out.push((i, name.clone(), j - i + 1));
                break;
            }
            if !opened && l.trim_end().ends_with(';') {
                break;
            }
        }
    }
    out
}

/// No function in src/ is longer than about 150 lines unless it says why at its top:
/// a line of its doc comment, or of its first lines, that starts `Long because`.
#[test]
fn no_function_is_over_150_lines_without_a_reason() {
    const LIMIT: usize = 150;
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let mut long = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let rel = file.strip_prefix(root()).unwrap().display().to_string();
        for (at, name, len) in function_lengths(&text) {
            if len <= LIMIT {
                continue;
            }
            let doc = lines[..at].iter().rev().take_while(|l| {
                l.trim_start().starts_with("///") || l.trim_start().starts_with("#[")
            });
            let top = lines[at..].iter().take(4);
            let said = doc.chain(top).any(|l| {
                let l = l.trim_start().trim_start_matches('/').trim_start();
                l.starts_with("Long because")
            });
            if !said {
                long.push(format!("{rel}:{} fn {name}: {len} lines", at + 1));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {LIMIT} lines without a `Long because` at their top:\n{}",
        long.join("\n")
    );
}

#[test]
fn function_lengths_count_braces_outside_strings_and_comments() {
    let text =
        "fn a() {\n    let s = \"}\"; // }\n    let c = '{';\n}\nfn b();\npub fn c() { 1 }\n";
    assert_eq!(
        function_lengths(text),
        [(0, "a".to_owned(), 4), (5, "c".to_owned(), 1)]
    );
}

/// What a test's code uses that only a cargo feature builds, and that feature: an item
/// behind `#[cfg(feature)]` in src/lib.rs or src/formats, or the `memplan` binary
/// (`required-features = ["cli"]`). A test file includes its `support/` files.
/// `onnx` and `cli` are default features: their entries keep a test honest about what
/// it needs, so `--no-default-features` skips it rather than failing to build.
const FEATURE_GATES: &[(&str, &str)] = &[
    ("memplan::tools", "tools"),
    ("formats::onnx::", "onnx"),
    ("memplan::cli::", "cli"),
    ("memplan::export_folder", "cli"),
    ("cargo_bin(\"memplan\")", "cli"),
];

/// The `[[test]]` targets of Cargo.toml and the features each requires.
fn test_targets(manifest: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut targets = BTreeMap::new();
    let mut name: Option<String> = None;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            name = None;
            if line == "[[test]]" {
                name = Some(String::new());
            }
            continue;
        }
        let Some(current) = name.as_mut() else {
            continue;
        };
        if let Some(value) = line.strip_prefix("name = ") {
            *current = value.trim_matches('"').to_owned();
            targets.insert(current.clone(), BTreeSet::new());
        } else if let Some(value) = line.strip_prefix("required-features = ") {
            let features = value.trim_matches(['[', ']']).split(',');
            let features = features.map(|f| f.trim().trim_matches('"').to_owned());
            targets
                .entry(current.clone())
                .or_default()
                .extend(features.filter(|f| !f.is_empty()));
        }
    }
    targets
}

/// A test's source with the `support/` files it includes.
fn test_source(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let mut all = text.clone();
    for part in text.split("include!(\"").skip(1) {
        let included = part.split('"').next().unwrap();
        all.push_str(&std::fs::read_to_string(root().join("tests").join(included)).unwrap());
    }
    all
}

/// `cargo test` (no feature named) builds in a clean clone and `--features tools` runs
/// every test: a test target that needs a feature declares it with `required-features`,
/// so cargo skips it instead of failing to compile (#52).
#[test]
fn every_test_that_needs_a_feature_requires_it() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let targets = test_targets(&manifest);
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root().join("tests")).unwrap() {
        let path = entry.unwrap().path();
        if !path.extension().is_some_and(|e| e == "rs") {
            continue;
        }
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let source = code(&test_source(&path));
        let declared = targets.get(&name).cloned().unwrap_or_default();
        for &(item, feature) in FEATURE_GATES {
            // Not where a string names it (this file's table).
            let used = source
                .match_indices(item)
                .any(|(at, _)| !source[..at].ends_with('"'));
            if used && !declared.contains(feature) {
                missing.push(format!("tests/{name}.rs uses {item}: needs \"{feature}\""));
            }
        }
    }
    missing.dedup();
    assert!(
        missing.is_empty(),
        "Cargo.toml lacks `[[test]] required-features` for:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_manifest_reader_sees_each_test_and_its_features() {
    let manifest = "[[test]]\nname = \"a\"\nrequired-features = [\"tools\", \"cli\"]\n\n\
                    [features]\nname = \"not a test\"\n[[test]]\nname = \"b\"\n";
    let targets = test_targets(manifest);
    assert_eq!(targets.len(), 2);
    assert_eq!(
        targets["a"],
        BTreeSet::from(["tools".to_owned(), "cli".to_owned()])
    );
    assert!(targets["b"].is_empty());
}
