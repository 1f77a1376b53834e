extension Schema {
    /// Migrations after the foundation: contacts, alerts, pings, notifications.
    static let domainMigrations: [Migration] = []

    /// Policies of the tables those migrations add.
    static let domainPolicies: [AccessPolicy] = []
}
