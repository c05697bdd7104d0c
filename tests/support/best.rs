// `best` of a session within a node budget, checked valid: what the recipe tests compare
// with a real build's figure (tests/recipes{,_cortexm,_fusions}.rs; included after
// support/planning.rs, whose `nodes` it uses).

/// `best`'s plan of `session` within 20,000 search nodes (the same on any machine),
/// asserted valid by the checker, and its peak.
fn best_of(session: &mut memplan::planning::Session) -> (memplan::model::Plan, u64) {
    let request = memplan::planning::Request {
        strategy: Some(memplan::strategies::Strategy::Best),
        budget: nodes(20_000),
        ..Default::default()
    };
    let (plan, report) = session.plan(&request).unwrap();
    assert!(memplan::check::check(&plan).is_valid());
    (plan, report.peak.parse().unwrap())
}
