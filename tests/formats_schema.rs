//! What memplan writes validates against docs/memplan.schema.json, with a small
//! validator for the keywords the schema uses (type, const, required, properties,
//! items, $ref, anyOf, minimum, maximum).

use serde_json::Value;

fn validate(schema: &Value, root: &Value, v: &Value, at: &str, errors: &mut Vec<String>) {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.trim_start_matches("#/$defs/");
        return validate(&root["$defs"][name], root, v, at, errors);
    }
    if let Some(options) = schema.get("anyOf").and_then(Value::as_array) {
        let ok = options.iter().any(|o| {
            let mut e = Vec::new();
            validate(o, root, v, at, &mut e);
            e.is_empty()
        });
        if !ok {
            errors.push(format!("{at}: matches no anyOf branch"));
        }
    }
    if let Some(c) = schema.get("const") {
        if c != v {
            errors.push(format!("{at}: expected {c}, found {v}"));
        }
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("object") if !v.is_object() => errors.push(format!("{at}: expected an object")),
        Some("array") if !v.is_array() => errors.push(format!("{at}: expected an array")),
        Some("string") if !v.is_string() => errors.push(format!("{at}: expected a string")),
        Some("boolean") if !v.is_boolean() => errors.push(format!("{at}: expected a boolean")),
        Some("null") if !v.is_null() => errors.push(format!("{at}: expected null")),
        Some("integer") if !(v.is_u64() || v.is_i64()) => {
            errors.push(format!("{at}: expected an integer"))
        }
        _ => {}
    }
    if let (Some(min), Some(n)) = (schema.get("minimum").and_then(Value::as_f64), v.as_f64()) {
        if n < min {
            errors.push(format!("{at}: {n} below {min}"));
        }
    }
    if let (Some(max), Some(n)) = (schema.get("maximum").and_then(Value::as_f64), v.as_f64()) {
        if n > max {
            errors.push(format!("{at}: {n} above {max}"));
        }
    }
    if let Some(obj) = v.as_object() {
        for key in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let key = key.as_str().unwrap();
            if !obj.contains_key(key) {
                errors.push(format!("{at}: missing `{key}`"));
            }
        }
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            for (k, value) in obj {
                match props.get(k) {
                    Some(s) => validate(s, root, value, &format!("{at}.{k}"), errors),
                    None => errors.push(format!("{at}.{k}: not in the schema")),
                }
            }
        }
    }
    if let (Some(items), Some(arr)) = (schema.get("items"), v.as_array()) {
        for (i, item) in arr.iter().enumerate() {
            validate(items, root, item, &format!("{at}[{i}]"), errors);
        }
    }
}

fn errors(doc: &memplan::formats::Document) -> Vec<String> {
    let schema: Value = serde_json::from_str(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/memplan.schema.json"
    )))
    .unwrap();
    let written: Value = serde_json::from_str(&memplan::formats::memplan_json::write(doc)).unwrap();
    let mut e = Vec::new();
    validate(&schema, &schema, &written, "$", &mut e);
    e
}

#[test]
fn written_plans_and_buffer_lists_match_the_schema() {
    let csv = "id,lower,upper,size,offset\nb1,0,3,4,0\nb2,3,9,4,0\n";
    let doc = memplan::formats::load("x.csv", csv.as_bytes()).unwrap();
    assert_eq!(errors(&doc), Vec::<String>::new());
    let plan = memplan::planning::resolve(&doc).unwrap();
    let doc = memplan::formats::Document {
        plan: Some(plan),
        ..doc
    };
    assert_eq!(errors(&doc), Vec::<String>::new());
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/bench/aidge/mobilenet_v2-single-wrap-None/planes.json"
    );
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let doc = memplan::formats::load(path, &bytes).unwrap();
    assert_eq!(errors(&doc), Vec::<String>::new());
}

#[test]
fn the_validator_rejects_what_the_schema_forbids() {
    let doc = memplan::formats::load("x.csv", b"a,0,3,4\n").unwrap();
    let schema: Value = serde_json::from_str(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/memplan.schema.json"
    )))
    .unwrap();
    let mut written: Value =
        serde_json::from_str(&memplan::formats::memplan_json::write(&doc)).unwrap();
    written["version"] = 2.into();
    written["buffers"]["buffers"][0]["size"] = (-1).into();
    written["buffers"]["buffers"][0]
        .as_object_mut()
        .unwrap()
        .remove("id");
    let mut e = Vec::new();
    validate(&schema, &schema, &written, "$", &mut e);
    assert_eq!(
        e,
        vec![
            "$.version: expected 1, found 2".to_string(),
            "$.buffers.buffers[0]: missing `id`".into(),
            "$.buffers.buffers[0].size: -1 below 0".into(),
        ]
    );
}
