//! TODO(skeleton): owned by a team member; see docs/ARCHITECTURE.md.
