from conftest import assert_usage_error, cli, cli_one


def test_crytures_roll_modifier_example_from_the_text():
    # Seed 000: pool 6, +2 roll modifier, faces 4 7 2 6 9 3 -> values 6 9 4 8 11 5.
    obj = cli_one("crytures", "roll", "6", "--roll-mod", "2", "--dice", "4,7,2,6,9,3")
    assert [d["value"] for d in obj["dice"]] == [6, 9, 4, 8, 11, 5]


def test_bad_wound_is_a_usage_error():
    assert_usage_error(cli("seyruun", "roll", "3", "--wound", "mortal"), "--wound", "'mortal'")
