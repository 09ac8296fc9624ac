"""Line of sight: Arcade's own ``line_of_sight.py`` example, with exact sight lines.

The scene, the movement (``arcade.PhysicsEngineSimple``) and the drawing are Arcade's
example as it ships (``python -m arcade.examples.line_of_sight``). The one change: the
walls are static sprites of a :class:`~arcade_collide.arcade.CollisionWorld`, and
whether an enemy sees the player comes from ``world.has_line_of_sight``, which tests
the whole segment against the walls' shapes, where ``arcade.has_line_of_sight`` tests a
point every 2 px along it (a line grazing a wall's corner can pass between two points).
The sight line is red while the enemy sees the player, white while a wall is in the way.

Artwork from https://kenney.nl

Run: ``python examples/line_of_sight.py`` (arrow keys move the player). With
``ARCADE_HEADLESS=1`` the player walks a scripted path off-screen (:data:`WALK`), then a
screenshot is saved and a summary printed.
"""

from __future__ import annotations

import argparse
import random

import arcade

from arcade_collide.arcade import CollisionWorld, HeadlessRun, run_view

SPRITE_SCALING = 0.5

WINDOW_WIDTH = 1280
WINDOW_HEIGHT = 720
WINDOW_TITLE = "Line of Sight"

MOVEMENT_SPEED = 5

VIEWPORT_MARGIN = 250
HORIZONTAL_BOUNDARY = WINDOW_WIDTH / 2.0 - VIEWPORT_MARGIN
VERTICAL_BOUNDARY = WINDOW_HEIGHT / 2.0 - VIEWPORT_MARGIN
# If the player moves further than this boundary away from
# the camera we use a constraint to move the camera
CAMERA_BOUNDARY = arcade.LRBT(
    -HORIZONTAL_BOUNDARY,
    HORIZONTAL_BOUNDARY,
    -VERTICAL_BOUNDARY,
    VERTICAL_BOUNDARY,
)

UP, DOWN, LEFT, RIGHT = arcade.key.UP, arcade.key.DOWN, arcade.key.LEFT, arcade.key.RIGHT
WALK: list[tuple[int, tuple[int, ...]]] = [
    (50, (UP,)), (24, (RIGHT,)), (110, (DOWN,)), (40, (UP, RIGHT)), (30, (RIGHT,)),
    (60, (UP,)), (70, (DOWN, LEFT)), (45, (RIGHT,)), (80, (UP,)), (40, (UP, RIGHT)),
    (60, (LEFT,)), (40, (UP,)),
]
"""The headless walk: ``(ticks, arrow keys held)`` in turn. It sweeps the enemy's sight
line along the first column of walls, through its gaps and past its tiles' corners."""
HEADLESS_SEED = 29
"""The wall layout of the headless run: its walk cuts tiles' corners that Arcade's
sampling misses."""


class GameView(arcade.View):
    """
    Main application class.
    """

    def __init__(self) -> None:
        """
        Initializer
        """

        # Call the parent class initializer
        super().__init__()

        # Variables that will hold sprite lists
        self.player_list: arcade.SpriteList[arcade.Sprite]
        self.wall_list: arcade.SpriteList[arcade.Sprite]
        self.enemy_list: arcade.SpriteList[arcade.Sprite]

        # Set up the player info
        self.player: arcade.Sprite

        # Track the current state of what key is pressed
        self.left_pressed = False
        self.right_pressed = False
        self.up_pressed = False
        self.down_pressed = False

        self.physics_engine: arcade.PhysicsEngineSimple

        # The walls' shapes, asked for lines of sight
        self.world: CollisionWorld

        # Camera for scrolling
        self.camera: arcade.Camera2D

        # Set the background color
        self.background_color = arcade.color.AMAZON

    def setup(self) -> None:
        """ Set up the game and initialize the variables. """

        # Camera
        self.camera = arcade.Camera2D()

        # Sprite lists
        self.world = CollisionWorld()
        self.player_list = arcade.SpriteList()
        self.wall_list = arcade.SpriteList(use_spatial_hash=True)
        self.enemy_list = arcade.SpriteList()

        # Set up the player
        self.player = arcade.Sprite(
            ":resources:images/animated_characters/female_person/femalePerson_idle.png",
            scale=SPRITE_SCALING,
        )
        self.player.center_x = 50
        self.player.center_y = 350
        self.player_list.append(self.player)

        # Set enemies
        enemy = arcade.Sprite(
            ":resources:images/animated_characters/zombie/zombie_idle.png",
            scale=SPRITE_SCALING,
        )
        enemy.center_x = 350
        enemy.center_y = 350
        self.enemy_list.append(enemy)

        spacing = 200
        for column in range(10):
            for row in range(10):
                sprite = arcade.Sprite(
                    ":resources:images/tiles/grassCenter.png",
                    scale=SPRITE_SCALING,
                )

                x = (column + 1) * spacing
                y = (row + 1) * sprite.height

                sprite.center_x = x
                sprite.center_y = y
                if random.randrange(100) > 20:
                    self.wall_list.append(sprite)

        # Walls never move: static sprites, held in the world's still grid
        self.world.add_sprite_list(self.wall_list, static=True)

        self.physics_engine = arcade.PhysicsEngineSimple(
            self.player,
            self.wall_list,
        )

    def on_draw(self) -> None:
        """
        Render the screen.
        """
        # This command has to happen before we start drawing
        self.clear()

        # Draw all the sprites.
        self.player_list.draw()
        self.wall_list.draw()
        self.enemy_list.draw()

        for enemy in self.enemy_list:
            if self.world.has_line_of_sight(
                self.player.position, enemy.position, self.wall_list
            ):
                color = arcade.color.RED
            else:
                color = arcade.color.WHITE
            arcade.draw_line(self.player.center_x,
                             self.player.center_y,
                             enemy.center_x,
                             enemy.center_y,
                             color,
                             2)

    def on_update(self, delta_time: float) -> None:
        """ Movement and game logic """

        # Calculate speed based on the keys pressed
        self.player.change_x = 0
        self.player.change_y = 0

        if self.up_pressed and not self.down_pressed:
            self.player.change_y = MOVEMENT_SPEED
        elif self.down_pressed and not self.up_pressed:
            self.player.change_y = -MOVEMENT_SPEED
        if self.left_pressed and not self.right_pressed:
            self.player.change_x = -MOVEMENT_SPEED
        elif self.right_pressed and not self.left_pressed:
            self.player.change_x = MOVEMENT_SPEED

        self.physics_engine.update()

        # --- Manage Scrolling ---
        self.camera.position = arcade.camera.grips.constrain_boundary_xy(
            self.camera.view_data, CAMERA_BOUNDARY, self.player.position
        )
        self.camera.use()

    def on_key_press(self, key: int, modifiers: int) -> None:
        """Called whenever a key is pressed. """

        if key == arcade.key.UP:
            self.up_pressed = True
        elif key == arcade.key.DOWN:
            self.down_pressed = True
        elif key == arcade.key.LEFT:
            self.left_pressed = True
        elif key == arcade.key.RIGHT:
            self.right_pressed = True

    def on_key_release(self, key: int, modifiers: int) -> None:
        """Called when the user releases a key. """

        if key == arcade.key.UP:
            self.up_pressed = False
        elif key == arcade.key.DOWN:
            self.down_pressed = False
        elif key == arcade.key.LEFT:
            self.left_pressed = False
        elif key == arcade.key.RIGHT:
            self.right_pressed = False


def walk(view: arcade.View, tick: int) -> None:
    """Press and release arrow keys on ``view`` as :data:`WALK` says for ``tick``.

    Works on any view with Arcade's ``on_key_press``/``on_key_release`` (this port and
    the original example alike); keys are released before new ones are pressed.
    """
    held: tuple[int, ...] = ()
    start = 0
    for ticks, keys in WALK:
        if tick == start:
            for key in held:
                if key not in keys:
                    view.on_key_release(key, 0)
            for key in keys:
                if key not in held:
                    view.on_key_press(key, 0)
            return
        held, start = keys, start + ticks
    if tick == start:  # the walk is over: stand still
        for key in held:
            view.on_key_release(key, 0)


def walk_ticks() -> int:
    """Ticks of the whole :data:`WALK`, plus one standing still at the end."""
    return sum(ticks for ticks, _ in WALK) + 1


def run_headless(
    *, window: arcade.Window | None = None, seed: int | None = None
) -> tuple[GameView, HeadlessRun]:
    """Play the scripted :data:`WALK`; return the game and the run.

    ``seed`` seeds :mod:`random` (which lays out the walls) first; ``None`` leaves it as
    it is, as the original example does.
    """
    if seed is not None:
        random.seed(seed)

    def make() -> GameView:
        game = GameView()
        game.setup()
        return game

    return run_view(make, walk_ticks(), window=window, size=(WINDOW_WIDTH, WINDOW_HEIGHT),
                    title=WINDOW_TITLE, before_tick=walk)


def main() -> None:
    """ Main function """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshot", default="docs/images/line_of_sight.png")
    parser.add_argument("--seed", type=int, default=None,
                        help=f"seed the wall layout (default: unseeded as in Arcade's "
                             f"example; {HEADLESS_SEED} headless)")
    args = parser.parse_args()
    if arcade.headless:
        game, run = run_headless(seed=HEADLESS_SEED if args.seed is None else args.seed)
        run.save_image(args.screenshot)
        enemy = game.enemy_list[0]
        sees = game.world.has_line_of_sight(game.player.position, enemy.position,
                                            game.wall_list)
        print(f"line of sight (headless): {run.ticks} ticks, {len(game.wall_list)} walls, "
              f"player at {game.player.position}, the enemy "
              f"{'sees' if sees else 'does not see'} the player; "
              f"{run.update_ms:.2f} ms/tick update, {run.draw_ms:.2f} ms/frame draw; "
              f"screenshot {args.screenshot}")
        game.world.close()
        return
    if args.seed is not None:
        random.seed(args.seed)

    # Create a window class. This is what actually shows up on screen
    window = arcade.Window(WINDOW_WIDTH, WINDOW_HEIGHT, WINDOW_TITLE)

    # Create and setup the GameView
    game = GameView()
    game.setup()

    # Show GameView on screen
    window.show_view(game)

    # Start the arcade game loop
    arcade.run()


if __name__ == "__main__":
    main()
