/// The standard's score of how hard a masked symbol is to read, lower being better
/// (ISO/IEC 18004, 7.8.3): the encoder draws the symbol with each of the eight masks and
/// keeps the one with the lowest score.
///
/// Any mask yields a valid symbol; the score only steers away from features that trip up
/// decoders: long runs of one colour (which blur the module grid), solid blocks, shapes a
/// decoder may take for a finder pattern, and a skewed balance of dark and light.
///
/// Rows and columns are scored as run lengths, so scoring the eight masks of a version 40
/// symbol (31 329 modules each) does not dominate the encoding.
enum MaskPenalty {
    /// N1..N4, the standard's weights.
    static let runWeight = 3
    static let blockWeight = 3
    static let finderLikeWeight = 40
    static let balanceWeight = 10

    static func score(_ grid: ModuleGrid) -> Int { score(grid.modules, size: grid.size) }

    /// The score of `size`×`size` modules, row by row, `true` for dark.
    static func score(_ modules: [Bool], size: Int) -> Int {
        var total = 0
        var runs: [Int] = []
        runs.reserveCapacity(size + 1)
        for index in 0..<size {
            // Row `index`, then column `index`.
            runLengths(modules, start: index * size, step: 1, count: size, into: &runs)
            total += runPenalty(runs) + finderLikePenalty(runs)
            runLengths(modules, start: index, step: size, count: size, into: &runs)
            total += runPenalty(runs) + finderLikePenalty(runs)
        }
        return total + blockPenalty(modules, size: size) + balancePenalty(modules)
    }

    /// The lengths of the runs of one colour along a line, light first: even indices are
    /// light runs, odd ones dark, and the first is 0 when the line starts dark. Rules N1 and
    /// N3 are about runs, and a line has far fewer runs than modules.
    static func runLengths(_ modules: [Bool], start: Int, step: Int, count: Int, into runs: inout [Int]) {
        runs.removeAll(keepingCapacity: true)
        var dark = false
        var length = 0
        var position = start
        for _ in 0..<count {
            if modules[position] == dark {
                length += 1
            } else {
                runs.append(length)
                dark.toggle()
                length = 1
            }
            position += step
        }
        runs.append(length)
    }

    /// N1: every run of five or more modules of one colour costs 3, plus 1 for each module
    /// beyond five.
    static func runPenalty(_ runs: [Int]) -> Int {
        var total = 0
        for length in runs where length >= 5 { total += runWeight + length - 5 }
        return total
    }

    /// N3: every dark-light-dark-dark-dark-light-dark run (1:1:3:1:1, a finder pattern's cross
    /// section) with four light modules before or after it costs 40. Outside the symbol counts
    /// as light, as the quiet zone is.
    static func finderLikePenalty(_ runs: [Int]) -> Int {
        var total = 0
        let last = runs.count - 1
        // `first` is the index of the pattern's first dark run (dark runs have odd indices).
        for first in stride(from: 1, to: runs.count - 4, by: 2)
        where runs[first] == 1 && runs[first + 1] == 1 && runs[first + 2] == 3 && runs[first + 3] == 1 && runs[first + 4] == 1 {
            let before = runs[first - 1] + (first - 1 == 0 ? 4 : 0)
            let after = first + 5 <= last ? runs[first + 5] + (first + 5 == last ? 4 : 0) : 4
            if before >= 4 || after >= 4 { total += finderLikeWeight }
        }
        return total
    }

    /// N2: every 2×2 square of one colour costs 3 (overlapping squares each count).
    static func blockPenalty(_ modules: [Bool], size: Int) -> Int {
        var total = 0
        for y in 0..<size - 1 {
            let row = y * size
            for x in 0..<size - 1 {
                let color = modules[row + x]
                if modules[row + x + 1] == color && modules[row + size + x] == color && modules[row + size + x + 1] == color {
                    total += blockWeight
                }
            }
        }
        return total
    }

    /// N4: 10 for every full 5 % by which the share of dark modules strays from 50 %.
    static func balancePenalty(_ modules: [Bool]) -> Int {
        let total = modules.count
        var dark = 0
        for module in modules where module { dark += 1 }
        // |dark / total − 1/2| in steps of 5 %, i.e. |2·dark − total| · 10 / total, rounded down.
        return abs(2 * dark - total) * 10 / total * balanceWeight
    }
}
