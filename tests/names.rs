//! Every name a user types is defined once, in Rust (issue #28): adding a strategy
//! changes only `src/strategies/`. The strategies the enum declares are exactly
//! `Strategy::ALL`, and the CLI's `--help` lists exactly those (after `as-loaded`),
//! with their help; `--format`'s help lists `Export::CHOICES`. The page's menu is
//! held to the same enum by tests/e2e/truth.test.mjs and `memplan.STRATEGIES` by
//! tests/parity/python_api_diff.py.

use assert_cmd::Command;
use memplan::formats::Export;
use memplan::planning;
use memplan::strategies::Strategy;

/// The variants of `pub enum Strategy` as the source declares them.
fn declared_variants() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/strategies/mod.rs");
    let source = std::fs::read_to_string(path).unwrap();
    let body = source
        .split("pub enum Strategy {")
        .nth(1)
        .and_then(|rest| rest.split('}').next())
        .expect("pub enum Strategy in src/strategies/mod.rs");
    body.lines()
        .map(|l| l.trim().trim_end_matches(','))
        .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// The values `memplan <command> --help` lists for `flag`, with their help.
fn possible_values(command: &str, flag: &str) -> Vec<(String, String)> {
    let out = Command::cargo_bin("memplan")
        .unwrap()
        .args([command, "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let after_flag = text
        .split(&format!("      {flag} <"))
        .nth(1)
        .unwrap_or_else(|| panic!("{flag} in `memplan {command} --help`:\n{text}"));
    let values = after_flag
        .split("Possible values:")
        .nth(1)
        .expect("a list of possible values");
    let mut out: Vec<(String, String)> = Vec::new();
    for line in values.lines().skip(1) {
        let line = line.trim();
        if line.is_empty() {
            break;
        }
        match line.strip_prefix("- ") {
            Some(item) => {
                let (name, help) = item.split_once(':').unwrap_or((item, ""));
                out.push((name.to_owned(), help.trim().to_owned()));
            }
            // clap wraps a long help onto the next lines.
            None => match out.last_mut() {
                Some((_, help)) => *help = format!("{help} {line}"),
                None => break,
            },
        }
    }
    out
}

#[test]
fn the_strategy_enum_is_strategy_all() {
    let all: Vec<String> = Strategy::ALL.iter().map(|s| format!("{s:?}")).collect();
    assert_eq!(all, declared_variants());
    // Names are distinct and none is the as-loaded choice or its alias.
    let mut names = Strategy::names();
    names.extend([planning::AS_LOADED, planning::AS_LOADED_ALIAS]);
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "{names:?}");
}

#[test]
fn the_clis_help_lists_exactly_the_strategies() {
    let listed = possible_values("plan", "--strategy");
    let names: Vec<&str> = listed.iter().map(|(n, _)| n.as_str()).collect();
    let mut expected = vec![planning::AS_LOADED];
    expected.extend(Strategy::ALL.iter().map(|s| s.name()));
    assert_eq!(names, expected);
    let helps: Vec<String> = listed.iter().map(|(_, h)| h.clone()).collect();
    let mut expected = vec![planning::AS_LOADED_HELP
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")];
    expected.extend(Strategy::ALL.iter().map(|s| s.help().to_owned()));
    assert_eq!(helps, expected);
    assert!(
        helps[0].contains("also accepted as `aidge`"),
        "{:?}",
        helps[0]
    );
}

#[test]
fn the_old_name_of_as_loaded_still_works_and_others_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("alias.csv");
    std::fs::write(&file, "id,lower,upper,size\na,0,3,4\nb,3,9,4\n").unwrap();
    for choice in [planning::AS_LOADED, planning::AS_LOADED_ALIAS] {
        let out = Command::cargo_bin("memplan")
            .unwrap()
            .args(["plan", "--strategy", choice, "-o", "-"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{choice}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = Command::cargo_bin("memplan")
        .unwrap()
        .args(["plan", "--strategy", "fastest", "-o", "-"])
        .arg(&file)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("greedy-size") && err.contains("as-loaded"),
        "{err}"
    );
}

#[test]
fn the_clis_help_lists_exactly_the_export_formats() {
    let listed = possible_values("convert", "--format");
    let expected: Vec<(String, String)> = Export::CHOICES
        .iter()
        .map(|c| (c.name.to_owned(), c.help.to_owned()))
        .collect();
    assert_eq!(listed, expected);
    for c in Export::CHOICES {
        for name in std::iter::once(&c.name).chain(c.aliases) {
            assert_eq!(Export::from_name(name), Some(c.export), "{name}");
        }
    }
}

/// The page saves a plan under its name and the format's suffix: two formats sharing a
/// suffix (the four Aidge logs were all `.memory_info.txt`) overwrite each other's file.
/// Each suffix is a name the CLI's `-o` reads as the same kind of format.
#[test]
fn every_export_format_has_a_download_suffix_of_its_own() {
    let mut seen = std::collections::HashMap::new();
    for c in Export::CHOICES {
        if let Some(other) = seen.insert(c.suffix, c.name) {
            panic!("{} and {} are both saved as *{}", other, c.name, c.suffix);
        }
        let told = Export::from_file_name(&format!("plan{}", c.suffix));
        assert_eq!(
            told.map(|e| std::mem::discriminant(&e)),
            Some(std::mem::discriminant(&c.export)),
            "{}: {}",
            c.name,
            c.suffix
        );
    }
}

/// The fields of a struct as `src/<file>` declares them (`pub name: Type,` lines).
fn struct_fields(file: &str, header: &str) -> Vec<String> {
    let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(path).unwrap();
    let body = source
        .split(header)
        .nth(1)
        .and_then(|rest| rest.split("\n}").next())
        .unwrap_or_else(|| panic!("{header} in {file}"));
    body.lines()
        .filter_map(|l| l.trim().strip_prefix("pub "))
        .filter_map(|l| l.split_once(':').map(|(name, _)| name.trim().to_owned()))
        .collect()
}

/// `memplan.Report` (python/memplan/report.py) is `planning::PlanReport` as a
/// dataclass, copied by hand: a field added in Rust must fail here until Python has it,
/// as a dataclass field and read by `Report.from_json`. Python's own fields (what only
/// `memplan.tflm` knows) are listed.
#[test]
fn the_python_report_has_every_field_of_plan_report() {
    const PYTHON_ONLY: [&str; 1] = ["arena"];
    let rust = struct_fields("src/planning.rs", "pub struct PlanReport {");
    assert!(rust.len() >= 10, "{rust:?}");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/python/memplan/report.py");
    let python = std::fs::read_to_string(path).unwrap();
    let class = python
        .split("class Report:")
        .nth(1)
        .expect("class Report in report.py");
    let fields: Vec<String> = class
        .lines()
        .take_while(|l| !l.trim_start().starts_with('@') && !l.trim_start().starts_with("def "))
        .filter(|l| l.starts_with("    ") && !l.starts_with("     "))
        .filter_map(|l| l.trim().split_once(':').map(|(n, _)| n.to_owned()))
        .filter(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        .collect();
    for f in &rust {
        assert!(
            fields.contains(f),
            "PlanReport.{f} is not a field of memplan.Report (python/memplan/report.py): {fields:?}"
        );
        assert!(
            class.contains(&format!("r[\"{f}\"]")) || class.contains(&format!("r.get(\"{f}\")")),
            "Report.from_json does not read PlanReport.{f}"
        );
    }
    for f in &fields {
        assert!(
            rust.contains(f) || PYTHON_ONLY.contains(&f.as_str()),
            "memplan.Report.{f} is in no PlanReport field (src/planning.rs)"
        );
    }
}
