import Foundation
import LifeSignalDomain

/// How the Dependents list is ordered inside each group.
public enum DependentSort: String, Sendable, Hashable, CaseIterable {
    /// Least time left first; people who never checked in last.
    case timeLeft
    case name
    /// Most recently added first.
    case dateAdded
}

/// The Dependents screen's groups, most urgent first (the original app's order).
public enum DependentGroup: String, Sendable, Hashable, CaseIterable {
    /// Raised an SOS.
    case alert
    /// Missed their deadline.
    case nonResponsive
    /// I pinged them and they have not answered.
    case pinged
    case others

    /// The section heading on the Dependents screen.
    public var title: String {
        switch self {
        case .alert: "SOS"
        case .nonResponsive: "Missed check-in"
        case .pinged: "Pinged"
        case .others: "Others"
        }
    }
}

extension ContactSummary {
    /// The group a dependent belongs to at `now`: an alert outranks a missed deadline, which
    /// outranks a pending ping.
    public func dependentGroup(at now: Date) -> DependentGroup {
        if hasActiveSOS { return .alert }
        if activeAlertID != nil { return .nonResponsive }
        if isNonResponsive || (deadline.map { $0 <= now } ?? false) { return .nonResponsive }
        if outgoingPingAt != nil { return .pinged }
        return .others
    }
}

/// Grouping, ordering and the badge, as pure functions of the contacts and the time.
public enum DependentGrouping {
    /// My dependents in their groups (empty groups left out), each group in `sort` order.
    public static func groups(_ contacts: [ContactSummary], at now: Date, sort: DependentSort) -> [(DependentGroup, [ContactSummary])] {
        let dependents = contacts.filter(\.roles.isDependent)
        return DependentGroup.allCases.compactMap { group in
            let members = dependents.filter { $0.dependentGroup(at: now) == group }
            return members.isEmpty ? nil : (group, sorted(members, by: sort, at: now))
        }
    }

    /// Dependents who need me now: an alert or a missed deadline.
    public static func badge(_ contacts: [ContactSummary], at now: Date) -> Int {
        contacts.filter { $0.roles.isDependent && [.alert, .nonResponsive].contains($0.dependentGroup(at: now)) }.count
    }

    static func sorted(_ members: [ContactSummary], by sort: DependentSort, at now: Date) -> [ContactSummary] {
        members.sorted { lhs, rhs in
            switch sort {
            case .timeLeft:
                switch (lhs.deadline, rhs.deadline) {
                case (let left?, let right?) where left != right: return left < right
                case (_?, nil): return true
                case (nil, _?): return false
                default: break
                }
            case .name:
                let order = lhs.name.localizedCaseInsensitiveCompare(rhs.name)
                if order != .orderedSame { return order == .orderedAscending }
            case .dateAdded:
                if lhs.addedAt != rhs.addedAt { return lhs.addedAt > rhs.addedAt }
            }
            return lhs.id.description < rhs.id.description
        }
    }
}
