"""The search's tuning constants (mpcmc_engine.search.tunables) and their table for a tuner."""

from mpcmc_engine.search import tunables


def test_every_tuning_constant_is_in_the_table_within_its_range():
    constants = {name: value for name, value in vars(tunables).items()
                 if name.isupper() and name != "TUNABLES" and isinstance(value, (int, float))}
    table = {name: (value, low, high) for name, value, low, high in tunables.TUNABLES}
    assert len(table) == len(tunables.TUNABLES) and set(table) == set(constants)
    for name, (value, low, high) in table.items():
        assert value == constants[name] and low <= value <= high, name
