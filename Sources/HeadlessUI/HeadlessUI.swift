// HeadlessUI: UIKit-shaped hosts with no rendering. Hosts land with the core issue.
