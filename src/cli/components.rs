//! The memory components `memplan plan` gives the multiple-mems driver.
//!
//! Aidge's `generate_memory_multiple_mems` takes them as two lists
//! (`memory_components_capacities`, `memory_components_priorities`); an export
//! records the ones its plan was made with (`plan.components`), so re-planning
//! the file reproduces that plan unless the flags say otherwise.

use crate::model::{Component, Plan};
use crate::{Error, Result};

/// `--capacities` / `--priorities` when given (priorities default to the
/// order of the capacities), else the components of the document's plan when
/// every one records a capacity (an export of multiple-mems), else none (the
/// driver's default: one 1e9-byte component).
pub(super) fn resolve(
    capacities: &[u64],
    priorities: &[i64],
    recorded: Option<&Plan>,
) -> Result<Vec<Component>> {
    if capacities.is_empty() {
        if !priorities.is_empty() {
            return Err(Error::whole(
                "--priorities needs --capacities (one capacity per component)",
            ));
        }
        let recorded = recorded.map(|p| p.components.as_slice()).unwrap_or(&[]);
        return Ok(match recorded.iter().all(|c| c.capacity.is_some()) {
            true => recorded.to_vec(),
            false => Vec::new(),
        });
    }
    if !priorities.is_empty() && priorities.len() != capacities.len() {
        return Err(Error::whole(format!(
            "--priorities gives {} values for {} --capacities: one priority per component",
            priorities.len(),
            capacities.len()
        )));
    }
    Ok(capacities
        .iter()
        .enumerate()
        .map(|(i, &capacity)| Component {
            name: format!("MEM_{i}"),
            capacity: Some(capacity),
            priority: priorities.get(i).copied().unwrap_or(i as i64),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan_with(components: Vec<Component>) -> Plan {
        Plan {
            components,
            ..Plan::default()
        }
    }

    #[test]
    fn flags_override_the_recorded_components() {
        let recorded = plan_with(vec![Component {
            name: "MEM_0".into(),
            capacity: Some(1_000_000_000),
            priority: 0,
        }]);
        let got = resolve(&[20_000, 1_000_000], &[1, 0], Some(&recorded)).unwrap();
        let caps: Vec<_> = got.iter().map(|c| (c.capacity, c.priority)).collect();
        assert_eq!(caps, [(Some(20_000), 1), (Some(1_000_000), 0)]);
        let got = resolve(&[5, 6, 7], &[], None).unwrap();
        assert_eq!(
            got.iter().map(|c| c.priority).collect::<Vec<_>>(),
            [0, 1, 2]
        );
    }

    #[test]
    fn recorded_components_are_kept_only_with_capacities() {
        let two = vec![
            Component {
                name: "MEM_0".into(),
                capacity: Some(20_000),
                priority: 0,
            },
            Component {
                name: "MEM_1".into(),
                capacity: Some(1_000_000_000),
                priority: 1,
            },
        ];
        assert_eq!(
            resolve(&[], &[], Some(&plan_with(two.clone()))).unwrap(),
            two
        );
        // A plan of the single-memory drivers records one unbounded component.
        let unbounded = plan_with(vec![Component::default()]);
        assert!(resolve(&[], &[], Some(&unbounded)).unwrap().is_empty());
        assert!(resolve(&[], &[], None).unwrap().is_empty());
    }

    #[test]
    fn inconsistent_flags_are_refused() {
        let e = resolve(&[], &[0], None).unwrap_err();
        assert!(
            e.to_string().contains("--priorities needs --capacities"),
            "{e}"
        );
        let e = resolve(&[1, 2], &[0], None).unwrap_err();
        assert!(e.to_string().contains("1 values for 2 --capacities"), "{e}");
    }
}
