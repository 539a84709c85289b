import Foundation

/// Reads the three date forms HTTP allows (RFC 9110, section 5.6.7), which a `Retry-After`
/// header may carry:
///
/// - IMF-fixdate, the one senders must use: `Sun, 06 Nov 1994 08:49:37 GMT`
/// - the obsolete RFC 850 form, with a two-digit year: `Sunday, 06-Nov-94 08:49:37 GMT`
/// - the obsolete C `asctime()` form, with no zone (always GMT): `Sun Nov  6 08:49:37 1994`
///
/// Hand-written rather than a `DateFormatter`: three fixed layouts in ASCII need no locale, and
/// a formatter per header is far slower than this scan.
enum HTTPDate {
  private static let shortWeekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
  private static let longWeekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
  private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  /// The instant `text` names, or `nil` when it is in none of the three forms or names no real day.
  ///
  /// - Parameters:
  ///   - text: The date, without surrounding whitespace.
  ///   - now: The current time: an RFC 850 two-digit year more than 50 years ahead of it means
  ///     the most recent past year with those last two digits, as RFC 9110 requires.
  static func parse(_ text: String, now: Date) -> Date? {
    let fields = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    if fields.count == 6, fields[0].hasSuffix(","), shortWeekdays.contains(String(fields[0].dropLast())),
      fields[5] == "GMT", fields[1].count == 2, fields[3].count == 4
    {
      // IMF-fixdate: day month year time GMT
      return date(day: fields[1], month: fields[2], year: number(fields[3]), time: fields[4])
    }
    if fields.count == 4, fields[0].hasSuffix(","), longWeekdays.contains(String(fields[0].dropLast())),
      fields[3] == "GMT"
    {
      // RFC 850: day-month-yy time GMT
      let parts = fields[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
      guard parts.count == 3, parts[0].count == 2, parts[2].count == 2, let twoDigits = number(parts[2]) else {
        return nil
      }
      return date(day: parts[0], month: parts[1], year: fullYear(twoDigits, now: now), time: fields[2])
    }
    if fields.count == 5, shortWeekdays.contains(fields[0]), (1...2).contains(fields[2].count),
      fields[4].count == 4
    {
      // asctime: month day time year, the day padded with a space rather than a zero
      return date(day: fields[2], month: fields[1], year: number(fields[4]), time: fields[3])
    }
    return nil
  }

  private static func number(_ digits: String) -> Int? {
    guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    return Int(digits)
  }

  private static func fullYear(_ twoDigits: Int, now: Date) -> Int {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "GMT")!
    let currentYear = calendar.component(.year, from: now)
    var year = currentYear - currentYear % 100 + twoDigits
    if year > currentYear + 50 { year -= 100 }
    return year
  }

  private static func date(day dayText: String, month monthText: String, year: Int?, time: String) -> Date? {
    let clock = time.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard let year, year >= 1, let day = number(dayText), let monthIndex = months.firstIndex(of: monthText),
      clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
      let hour = number(clock[0]), let minute = number(clock[1]), let second = number(clock[2]),
      hour < 24, minute < 60, second <= 60  // 60: a leap second
    else { return nil }
    let month = monthIndex + 1
    guard day >= 1, day <= daysIn(month: month, year: year) else { return nil }
    let days = daysSince1970(year: year, month: month, day: day)
    let seconds = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second)
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  private static func isLeap(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  /// Days from 1970-01-01 to the given day of the proleptic Gregorian calendar.
  static func daysSince1970(year: Int, month: Int, day: Int) -> Int64 {
    // Count whole years, then whole months of the last year, then days.
    var days: Int64 = 0
    let leapDays = { (year: Int) -> Int64 in
      // Leap years in [1, year): those divisible by 4, less centuries, plus every 400th year.
      let y = Int64(year - 1)
      return y / 4 - y / 100 + y / 400
    }
    days += Int64(year - 1970) * 365 + leapDays(year) - leapDays(1970)
    for earlier in 1..<month { days += Int64(daysIn(month: earlier, year: year)) }
    days += Int64(day - 1)
    return days
  }
}
