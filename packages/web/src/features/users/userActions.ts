import type { User } from "@sightline/core";
import { deleteUser, disableUser, enableUser } from "../../api/users";
import { notify } from "../../app/notifications";
import { saveErrorMessage } from "./messages";

type UserLike = Pick<User, "id" | "name">;

/** Enable, disable and delete with their notifications; resolves whether it worked. */
async function run(action: () => Promise<unknown>, success: string): Promise<boolean> {
  try {
    await action();
    notify.success(success);
    return true;
  } catch (error) {
    notify.error(saveErrorMessage(error));
    return false;
  }
}

export const enable = (user: UserLike) =>
  run(() => enableUser(user.id), `User ${user.name} is now enabled.`);

export const disable = (user: UserLike) =>
  run(() => disableUser(user.id), `User ${user.name} is now disabled.`);

export const remove = (user: UserLike) =>
  run(() => deleteUser(user.id), `User ${user.name} has been deleted.`);
