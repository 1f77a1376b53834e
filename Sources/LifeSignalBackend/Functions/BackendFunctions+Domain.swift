import Foundation

extension BackendFunctions {
    /// The functions of contacts, alerts, pings, notifications and the account; each area
    /// adds its table here.
    static let domainFunctions: [Registration] =
        contactFunctions + alertFunctions + pingFunctions + notificationFunctions + accountFunctions + messagingFunctions
}
