/// What people see of each other through `/rest/v1` and Realtime, as docs/security.md's model
/// has it (issue 18).
extension Schema {
    /// A responder reads a dependent's check-ins: their status is what a responder is for, and
    /// the `check_ins` INSERT is how a responder's app hears of a check-in now that the
    /// dependent's `users` row is no longer theirs to read.
    static let checkInsSelectDependents = AccessPolicy.Rule(
        "check_ins_select_dependents", .select, to: [.authenticated], using: isResponderOf("check_ins.user_id"))

    /// `users` rows are their owner's alone. Until this migration any contact, of any role, read
    /// another's whole row — QR code id (with which a stranger could link as responder),
    /// reminder settings, escalation markers — through `/rest/v1/users` and Realtime `UPDATE`s.
    /// Contacts now see each other only through `get-contacts`, which shows each what the model
    /// gives their role.
    static let peopleSeeOnlyTheirOwn = Migration(
        version: 170, name: "users rows are their owner's; responders read check-ins", statements: [],
        postgresOnly: [
            "DROP POLICY IF EXISTS users_select_contacts ON users",
            checkInsSelectDependents.postgresStatement(on: "check_ins"),
        ])
}
