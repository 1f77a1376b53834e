import Foundation

extension BackendFunctions {
    /// The functions of contacts, alerts, pings, notifications and the account; each area
    /// adds its table here.
    static let domainFunctions: [String: Handler] = {
        var all: [String: Handler] = [:]
        for area in [contactFunctions, alertFunctions, pingFunctions, notificationFunctions, accountFunctions, messagingFunctions] {
            all.merge(area) { first, _ in first }
        }
        return all
    }()
}
