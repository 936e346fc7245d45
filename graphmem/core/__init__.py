"""The ground everything stands on: settings, errors, namespaces, identifiers, paging, time."""
