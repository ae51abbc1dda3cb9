/** What other areas may call on user attributes. */
export { allUserAttributes, attributeValuesByName, getUserAttributeValues, valueProblem } from './attributes';
export { registerUserAttributeRoutes } from './routes';
