/**
 * The previous WAF's OWASP package as fixtures give it (zones on the previous WAF): one group with
 * the "Block robots" rule, whose `new_id` is the managed rule it migrates to. Tests that need more
 * rules in the group pass them.
 */
export const BLOCK_ROBOTS_NEW_ID = '5de7edfa648c4d6891dc3e7f84534ffa';

interface PreviousWafRule {
  id: string;
  description: string;
  mode: string;
  new_id?: string;
}

export function owaspPackage(moreRules: PreviousWafRule[] = []) {
  const rules: PreviousWafRule[] = [
    {
      id: 'f939de3be84e66e757adcdcb87908023',
      description: 'Block robots',
      mode: 'off',
      new_id: BLOCK_ROBOTS_NEW_ID,
    },
    ...moreRules,
  ];
  return {
    id: 'a25a9a7e9c00afc1fb2e0245519d725b',
    name: 'OWASP ModSecurity Core Rule Set',
    detection_mode: 'anomaly',
    groups: [
      {
        id: 'de677e5818985db1285d0e80225f06e5',
        name: 'OWASP Bad Robots',
        mode: 'on',
        rules,
      },
    ],
  };
}
